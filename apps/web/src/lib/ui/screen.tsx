import { Card, Typography } from 'antd'
import type { ReactNode } from 'react'
import { useSession } from '../session-store'

/**
 * The frame of a screen below the breadcrumb: its Chinese title and content. `description`: one
 * short secondary line under the title, for a screen whose model is not obvious (what a 岗位 is, …).
 * Screens that are not built yet show what they will hold.
 */
export function Screen({
  title,
  description,
  extra,
  children,
}: {
  title: string
  description?: ReactNode
  extra?: ReactNode
  children?: ReactNode
}) {
  // a phone's screen keeps its width for the content: a narrower frame
  const mobile = useSession((s) => s.device) === 'mobile'
  return (
    <Card
      variant="borderless"
      styles={mobile ? { header: { padding: '0 12px' }, body: { padding: 12 } } : undefined}
      title={
        // with a description the head grows past its fixed height: padded so the title keeps its margin
        <div style={description ? { padding: '12px 0' } : undefined}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          {description && (
            <Typography.Text
              type="secondary"
              data-testid="screen-description"
              style={{ display: 'block', fontWeight: 'normal', whiteSpace: 'normal', marginTop: 2 }}
            >
              {description}
            </Typography.Text>
          )}
        </div>
      }
      extra={extra}
    >
      {children}
    </Card>
  )
}

/** A screen whose content comes in a later issue: its title and one line saying what it will show. */
export function PlaceholderScreen({
  title,
  summary,
  children,
}: {
  title: string
  summary: string
  children?: ReactNode
}) {
  return (
    <Screen title={title}>
      <Typography.Paragraph type="secondary" data-testid="screen-summary">
        {summary}
      </Typography.Paragraph>
      {children}
    </Screen>
  )
}
