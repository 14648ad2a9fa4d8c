import { theme, type ThemeConfig } from 'antd'
import { create } from 'zustand'

export type ThemeMode = 'light' | 'dark'
export type Density = 'default' | 'compact'

export interface Appearance {
  mode: ThemeMode
  density: Density
}

/** Local storage key: the look is a choice of this browser, not of the account (shared machines differ). */
export const APPEARANCE_STORAGE_KEY = 'amg.appearance'

const DEFAULT_APPEARANCE: Appearance = { mode: 'light', density: 'default' }

/** What this browser chose last; anything unreadable falls back to the default look. */
export function readAppearance(): Appearance {
  try {
    const stored = JSON.parse(window.localStorage.getItem(APPEARANCE_STORAGE_KEY) ?? 'null') as unknown
    if (!stored || typeof stored !== 'object') return DEFAULT_APPEARANCE
    const { mode, density } = stored as Partial<Appearance>
    return {
      mode: mode === 'dark' ? 'dark' : 'light',
      density: density === 'compact' ? 'compact' : 'default',
    }
  } catch {
    return DEFAULT_APPEARANCE
  }
}

function writeAppearance(appearance: Appearance) {
  try {
    window.localStorage.setItem(APPEARANCE_STORAGE_KEY, JSON.stringify(appearance))
  } catch {
    // storage unavailable (private mode): the choice lasts for this page only
  }
}

interface AppearanceState extends Appearance {
  setMode(mode: ThemeMode): void
  setDensity(density: Density): void
}

export const useAppearance = create<AppearanceState>()((set, get) => ({
  ...readAppearance(),
  setMode(mode) {
    set({ mode })
    writeAppearance({ mode, density: get().density })
  },
  setDensity(density) {
    set({ density })
    writeAppearance({ mode: get().mode, density })
  },
}))

/** The dark theme's menu column: the surface colours of antd's dark palette instead of its navy blue. */
const DARK_MENU_COLUMN: ThemeConfig['components'] = {
  Layout: { siderBg: '#141414' },
  Menu: { darkItemBg: '#141414', darkSubMenuItemBg: '#0a0a0a', darkPopupBg: '#1f1f1f' },
}

/** antd's theme for the look: the dark or default algorithm, plus compact when chosen. */
export function themeFor({ mode, density }: Appearance): ThemeConfig {
  const base = mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm
  return {
    algorithm: density === 'compact' ? [base, theme.compactAlgorithm] : [base],
    components: mode === 'dark' ? DARK_MENU_COLUMN : undefined,
  }
}
