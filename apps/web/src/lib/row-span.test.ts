import { describe, expect, it } from 'vitest'
import { mergeRowSpans } from './row-span'

describe('mergeRowSpans', () => {
  it('answers nothing for no rows', () => {
    expect(mergeRowSpans([])).toEqual([])
  })

  it('gives a single row a span of 1', () => {
    expect(mergeRowSpans(['研发中心'])).toEqual([1])
  })

  it('merges a run of identical adjacent names into its first row', () => {
    expect(mergeRowSpans(['A', 'A', 'A'])).toEqual([3, 0, 0])
  })

  it('keeps different adjacent names apart', () => {
    expect(mergeRowSpans(['A', 'B', 'C'])).toEqual([1, 1, 1])
  })

  it('merges each run separately, also runs at the end', () => {
    expect(mergeRowSpans(['A', 'A', 'B', 'C', 'C'])).toEqual([2, 0, 1, 2, 0])
  })

  it('does not merge equal names that are not adjacent', () => {
    expect(mergeRowSpans(['A', 'B', 'A'])).toEqual([1, 1, 1])
  })

  it('compares names exactly (a parent name is not its child name)', () => {
    expect(mergeRowSpans(['总部-研发', '总部-研发-前端', '总部-研发'])).toEqual([1, 1, 1])
  })

  it('treats missing names as equal to each other only', () => {
    expect(mergeRowSpans([undefined, undefined, 'A', null])).toEqual([2, 0, 1, 1])
  })
})
