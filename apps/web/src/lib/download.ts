import { download, type CallOptions } from './http'

/** Hands a blob to the browser as a file download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  // let the browser read the file before the address is released
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

/**
 * Downloads a file the server answers as an attachment, through the console's HTTP layer (so the
 * session token goes along), and saves it under the server's file name, else `fallbackName`.
 */
export async function downloadFile(
  url: string,
  params: object | undefined,
  fallbackName: string,
  opts?: CallOptions,
): Promise<string> {
  const { blob, fileName } = await download(url, params, opts)
  const name = fileName || fallbackName
  saveBlob(blob, name)
  return name
}
