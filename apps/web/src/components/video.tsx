import type { CSSProperties } from 'react'

export interface VideoProps {
  src: string
  poster?: string
  width?: number | string
  height?: number | string
  autoPlay?: boolean
  loop?: boolean
  muted?: boolean
  /** Show the player controls (default true). */
  controls?: boolean
  style?: CSSProperties
}

/** Video player. */
export function Video({ src, controls = true, width = '100%', height, style, ...props }: VideoProps) {
  return (
    <video className="amg-video" src={src} controls={controls} style={{ width, height, ...style }} {...props}>
      您的浏览器不支持视频播放
    </video>
  )
}
