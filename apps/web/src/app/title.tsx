import { theme } from 'antd'
import type { CSSProperties, ReactNode } from 'react'

/**
 * A heading as antd's Typography.Title shows it (the theme's heading colour, weight, size and line
 * height, half a line below), for the sign-in page and the shell: Typography would bring its
 * editing, copying and ellipsis parts into the first download (DESIGN.md §12).
 */
export function Title({
  level,
  style,
  children,
}: {
  level: 2 | 3
  style?: CSSProperties
  children: ReactNode
}) {
  const { token } = theme.useToken()
  const Heading = level === 2 ? 'h2' : 'h3'
  return (
    <Heading
      style={{
        color: token.colorTextHeading,
        wordBreak: 'break-word',
        fontWeight: token.fontWeightStrong,
        fontSize: level === 2 ? token.fontSizeHeading2 : token.fontSizeHeading3,
        lineHeight: level === 2 ? token.lineHeightHeading2 : token.lineHeightHeading3,
        marginBottom: '0.5em',
        ...style,
      }}
    >
      {children}
    </Heading>
  )
}
