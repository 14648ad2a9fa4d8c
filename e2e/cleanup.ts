import { api } from './helpers'

/**
 * What a spec created through the API, deleted again after it, newest first (children before their
 * parents), so that later specs in the same run see short lists and small trees.
 */
export function createdData() {
  const deletes: string[] = []
  return {
    /** The DELETE call that removes it, e.g. `/user/delete?userId=7`. */
    remember(url: string) {
      deletes.push(url)
    },
    async removeAll(token: string) {
      const failed: string[] = []
      for (const url of deletes.reverse()) {
        const res = await api('DELETE', url, { token })
        if (res.status !== 200) failed.push(`${url}: ${res.status} ${res.msg}`)
      }
      deletes.length = 0
      if (failed.length) throw new Error(`cleanup failed:\n${failed.join('\n')}`)
    },
  }
}
