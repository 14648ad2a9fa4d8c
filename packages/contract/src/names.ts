/**
 * Names a person types (DESIGN.md §11): a user's nickName and realName, a role's, group's,
 * department's and job title's name, a permission's chName and enName. Two names that look the same
 * must be the same name, so every name is stored in one form and what cannot be seen is refused:
 *
 * - **Normalised**: NFKC (full-width `ａｄｍｉｎ` is `admin`, `㈱` is `(株)`, the ideographic space is
 *   a space), the ends trimmed and runs of spaces made one.
 * - **Refused** (400, with the field's name in the message), looked for in the normalised name:
 *   - invisible and format characters: every control (Cc), every format character (Cf: U+00AD,
 *     U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+206F, U+FEFF, U+FFF9–U+FFFB, the tags
 *     U+E0001–U+E007F, …), every other default-ignorable code point (variation selectors, the
 *     Hangul fillers, U+034F, U+180B–U+180F, …), line and paragraph separators (Zl, Zp) and any
 *     white space but the plain space (tab, line breaks, U+1680);
 *   - code points that show as nothing anyone can read: private use (Co), unassigned and
 *     non-characters (Cn), lone surrogates (Cs);
 *   - Latin letters mixed with Greek or Cyrillic letters in one name (`аdmin` with a Cyrillic `а`):
 *     the classic look-alike; a name wholly in one of these scripts, or Latin with Chinese, is fine;
 *   - a combining mark with nothing to sit on (at the start) or more than four stacked in a row.
 *
 * Search boxes get the same normalisation and no refusal, so `ａｄｍｉｎ` finds `admin`. Sign-in
 * normalises the typed name the same way. One implementation, used by the server (the schemas mark
 * the fields, see NAME_KEYWORD) and by the console's form rules.
 */

/** Schema keyword: the field is a name (its value: the label the messages use). */
export const NAME_KEYWORD = 'x-name'
/** Schema keyword: the field searches names; normalised like one, never refused. */
export const NAME_SEARCH_KEYWORD = 'x-name-search'

/** What each name field is called in the messages (the console's form labels). */
export const NAME_LABELS = {
  nickName: '用户昵称',
  realName: '真实姓名',
  roleName: '角色名称',
  groupName: '用户组名称',
  organizationName: '部门名称',
  stationName: '职位名称',
  chName: '中文名',
  enName: '英文名',
  serviceName: '服务名称',
} as const

/** Marks combining with the letter before them; more than this many in a row is stacking. */
export const MAX_STACKED_MARKS = 4

/**
 * One invisible character: controls, format, default-ignorable, line and paragraph separators, white
 * space but the plain space. Checked on the NFKC form, where most other spaces (U+00A0, U+2000–U+200A,
 * U+3000, …) are already U+0020. Migration 0013 removes the same set from the names stored before.
 */
export const INVISIBLE_CHARACTER =
  /(?! )[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{White_Space}]/u
const UNUSABLE = /[\p{Co}\p{Cn}\p{Cs}]/u
const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u]
const LETTER = /\p{L}/gu
const LOOSE_MARKS = new RegExp(`^\\p{M}|\\p{M}{${MAX_STACKED_MARKS + 1},}`, 'u')

export const nameMessages = {
  invisible: (label: string) => `${label}不能包含不可见字符、格式控制字符或换行（如零宽空格、方向控制符）`,
  unusable: (label: string) => `${label}不能包含私用区、未分配或不完整的字符`,
  mixedScripts: (label: string) => `${label}不能混用拉丁字母与希腊字母或西里尔字母（容易与其他名称混淆）`,
  looseMarks: (label: string) =>
    `${label}不能以组合符号开头，也不能连续叠加超过 ${MAX_STACKED_MARKS} 个组合符号`,
}

/** The one form a name is stored, compared and searched in. */
export function normalizeName(text: string): string {
  const once = text.normalize('NFKC').replace(/ {2,}/g, ' ').trim()
  // trimming and joining spaces can bring characters together: normalise once more so the result is stable
  return once.normalize('NFKC')
}

/** Which of the look-alike scripts the name's letters use (more than one is refused). */
function lookAlikeScripts(name: string): number {
  let used = 0
  for (const [letter] of name.matchAll(LETTER)) {
    LOOK_ALIKE_SCRIPTS.forEach((script, i) => {
      if (script.test(letter)) used |= 1 << i
    })
  }
  return used
}

/**
 * Why this name is refused (the message, naming the field by `label`), or null when it may be
 * stored. Looks at the normalised form; a blank name is left to the field's required rule.
 */
export function checkName(value: unknown, label: string): string | null {
  if (typeof value !== 'string') return null
  const name = normalizeName(value)
  if (name === '') return null
  if (INVISIBLE_CHARACTER.test(name)) return nameMessages.invisible(label)
  if (UNUSABLE.test(name)) return nameMessages.unusable(label)
  const scripts = lookAlikeScripts(name)
  if (scripts & (scripts - 1)) return nameMessages.mixedScripts(label)
  if (LOOSE_MARKS.test(name)) return nameMessages.looseMarks(label)
  return null
}

/** Whether a stored name is what `normalizeName` and `checkName` let through (tests and migrations). */
export const isCleanName = (name: string): boolean =>
  normalizeName(name) === name && checkName(name, '') === null
