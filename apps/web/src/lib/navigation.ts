/**
 * Navigation from outside React (the HTTP layer's 401 flow). The router registers its navigate
 * function at start; until then a full page load is used.
 */
type Navigate = (to: string) => void

let navigator: Navigate | null = null

export function setNavigator(fn: Navigate | null) {
  navigator = fn
}

export function navigateTo(to: string) {
  if (navigator) navigator(to)
  else window.location.assign(to)
}
