import fs from 'node:fs'
import path from 'node:path'

/**
 * The data directory is readable by the server's user only (DESIGN.md §11): the embedded database's
 * files — its write-ahead log holds every password hash — and the uploads are nobody else's business
 * on a shared machine. Directories end up 0700 and files 0600.
 *
 * Three parts, because no one of them is enough:
 * - the process's umask takes group and other permissions off whatever it creates from now on, which
 *   covers the files the database engine creates while it runs;
 * - the files the server writes itself (uploads, the lock) are created with explicit modes;
 * - at start the existing tree is tightened, for data directories from older versions and because
 *   PGlite sets the files of a freshly initialised database to 0666 itself, whatever the umask.
 */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600
const GROUP_AND_OTHER = 0o077

/** Takes group and other permissions off everything this process creates from now on. */
export function restrictNewFiles(): void {
  try {
    const previous = process.umask(GROUP_AND_OTHER)
    process.umask(previous | GROUP_AND_OTHER)
  } catch {
    // A worker thread may not change the umask; the tightening at start and the explicit modes remain.
  }
}

/**
 * Creates the directory when missing, closes it to others first (nothing inside is reachable through
 * a closed directory), restricts new files, then tightens everything already in it.
 */
export function securePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  restrictNewFiles()
  tightenTree(dir)
}

/**
 * Removes group and other permissions from the directory and everything below it (0777 → 0700,
 * 0666 → 0600); the owner's own bits stay as they are. Symbolic links are not followed: the tree is
 * the directory's own content. What cannot be changed (owned by another user) is reported as a
 * warning rather than stopping the start.
 */
export function tightenTree(root: string): void {
  const refused: string[] = []
  const tighten = (target: string, mode: number) => {
    if ((mode & GROUP_AND_OTHER) === 0) return
    try {
      fs.chmodSync(target, mode & 0o7777 & ~GROUP_AND_OTHER)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'ENOENT') refused.push(target)
    }
  }
  const rootStat = fs.statSync(root) // the configured directory itself may be reached through a link
  tighten(root, rootStat.mode)
  const pending = rootStat.isDirectory() ? [root] : []
  while (pending.length) {
    const dir = pending.pop()!
    let names: string[]
    try {
      names = fs.readdirSync(dir)
    } catch {
      refused.push(dir)
      continue
    }
    for (const name of names) {
      const target = path.join(dir, name)
      let stat: fs.Stats
      try {
        stat = fs.lstatSync(target)
      } catch {
        continue // gone meanwhile (the database removes its temporary files)
      }
      if (stat.isSymbolicLink()) continue
      tighten(target, stat.mode)
      if (stat.isDirectory()) pending.push(target)
    }
  }
  if (refused.length)
    process.emitWarning(
      `数据目录中有 ${refused.length} 项无法改为仅服务用户可读（如 ${refused[0]}），请检查其属主。`,
    )
}
