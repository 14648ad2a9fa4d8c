import { theme } from 'antd'
import type { ReactNode } from 'react'

export interface ListProps<T> {
  items: readonly T[]
  renderItem: (item: T, index: number) => ReactNode
  rowKey?: (item: T, index: number) => string | number
  header?: ReactNode
  /** Shown when there are no items. */
  empty?: ReactNode
  bordered?: boolean
}

/** A simple list (antd 6 deprecates its List, so this renders plain markup with antd-like styles). */
export function List<T>({ items, renderItem, rowKey, header, empty = '暂无数据', bordered }: ListProps<T>) {
  const { token } = theme.useToken()
  const line = `1px solid ${token.colorBorderSecondary}`
  return (
    <div className="amg-list" style={bordered ? { border: line, borderRadius: 8 } : undefined}>
      {header ? <div style={{ padding: '8px 16px', borderBottom: line }}>{header}</div> : null}
      {items.length === 0 ? (
        <div style={{ padding: 16, textAlign: 'center', color: token.colorTextDescription }}>{empty}</div>
      ) : (
        <ul role="list" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item, index) => (
            <li
              key={rowKey ? rowKey(item, index) : index}
              style={{ padding: '8px 16px', borderBottom: line }}
            >
              {renderItem(item, index)}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
