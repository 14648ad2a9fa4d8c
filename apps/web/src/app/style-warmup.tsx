import { Alert, Breadcrumb, Button, Layout, Menu, Space, Spin, Tooltip } from 'antd'
import { Activity, lazy, memo, Suspense, useState } from 'react'
import { createPortal } from 'react-dom'

// the list screens' components: loaded apart, they are not part of the first download
const ListWarmup = lazy(() => import('./list-warmup'))

/**
 * antd works out a component's styles (and the browser compiles the component's code) the first time
 * it is rendered, and drops those styles again when the last such component goes: for the signed-in
 * frame and a list screen, that work was a good part of the time they take to appear. Once the
 * browser is idle, this renders those components once, hidden (React's Activity renders a hidden
 * tree without its layout and effects, but with its styles) into an element that is not part of the
 * page, and keeps them for the session: the frame and the screens find their styles ready
 * (DESIGN.md §12). Nothing of it is in the page, so nothing looking at the page finds it.
 */
export const StyleWarmup = memo(function StyleWarmup() {
  const [holder] = useState(() => document.createElement('div'))
  return createPortal(
    <Activity mode="hidden">
      <Layout>
        <Layout.Sider collapsible collapsed trigger={null}>
          <Menu
            theme="dark"
            mode="inline"
            items={[{ key: 'group', label: '-', children: [{ key: 'item', label: '-' }] }]}
          />
        </Layout.Sider>
        <Layout>
          <Layout.Header>
            <Tooltip title="-">
              <Button type="text">-</Button>
            </Tooltip>
            <Space>
              <Button type="link">-</Button>
            </Space>
          </Layout.Header>
          <Layout.Content>
            <Alert type="warning" showIcon title="-" action={<Button size="small">-</Button>} />
            <Breadcrumb items={[{ title: '-' }, { title: '-' }]} />
            <Spin />
            <Suspense fallback={null}>
              <ListWarmup />
            </Suspense>
          </Layout.Content>
        </Layout>
      </Layout>
    </Activity>,
    holder,
  )
})
