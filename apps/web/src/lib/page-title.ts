import { useEffect } from 'react'

/** The product's name, as the page title of index.html has it. */
export const PRODUCT_TITLE = '权限管理系统'

/** The browser tab names the screen: '用户管理 - 权限管理系统', the product alone without a screen name. */
export const pageTitle = (screen?: string) => (screen ? `${screen} - ${PRODUCT_TITLE}` : PRODUCT_TITLE)

export function usePageTitle(screen?: string) {
  useEffect(() => {
    document.title = pageTitle(screen)
  }, [screen])
}
