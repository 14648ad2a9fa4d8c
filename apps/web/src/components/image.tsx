import { MSG } from '@amg/contract'
import { Image as AntImage, theme } from 'antd'
import { useEffect, useState, type CSSProperties } from 'react'

export interface ImageProps {
  src: string
  alt?: string
  width?: number | string
  height?: number | string
  /** Click to preview (default true). */
  preview?: boolean
  style?: CSSProperties
}

const boxStyle = (
  colors: { background: string; color: string },
  width?: number | string,
  height?: number | string,
): CSSProperties => ({
  width,
  height,
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  ...colors,
  fontSize: 14,
})

/** Image: '图片加载中...' while loading, '加载失败' on error (SPEC.md §8). */
export function Image({ src, alt, width, height, preview = true, style }: ImageProps) {
  const [failed, setFailed] = useState(false)
  const { token } = theme.useToken()
  const colors = { background: token.colorFillTertiary, color: token.colorTextDescription }
  useEffect(() => setFailed(false), [src])
  if (failed) {
    return (
      <div
        className="amg-image-error"
        role="img"
        aria-label={alt}
        style={{ ...boxStyle(colors, width, height), ...style }}
      >
        {MSG.imageFailed}
      </div>
    )
  }
  return (
    <AntImage
      src={src}
      alt={alt}
      width={width}
      height={height}
      style={style}
      preview={preview}
      placeholder={<div style={boxStyle(colors, width, height)}>{MSG.imageLoading}</div>}
      onError={() => setFailed(true)}
    />
  )
}
