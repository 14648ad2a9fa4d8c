import { Tag } from 'antd'

/** A name and, after it, its tag when it has one (a role's type, 超级管理员); wraps in a narrow column. */
export function NameWithTag({ name, tag }: { name: string; tag?: { color: string; text: string } }) {
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
      <span>{name}</span>
      {tag ? (
        <Tag color={tag.color} style={{ marginInlineEnd: 0 }}>
          {tag.text}
        </Tag>
      ) : null}
    </span>
  )
}
