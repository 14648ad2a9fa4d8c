import { BgColorsOutlined } from '@ant-design/icons'
import { Button, Dropdown, type MenuProps } from 'antd'
import { useAppearance, type Density, type ThemeMode } from '../lib/theme-store'

export const APPEARANCE_LABEL = '外观'
const MODES: { key: ThemeMode; label: string }[] = [
  { key: 'light', label: '浅色主题' },
  { key: 'dark', label: '深色主题' },
]
const DENSITIES: { key: Density; label: string }[] = [
  { key: 'default', label: '标准密度' },
  { key: 'compact', label: '紧凑密度' },
]

/**
 * The theme (light or dark) and density (standard or compact) of this browser, in the header and on
 * the sign-in page. The choice is kept in local storage (lib/theme-store.ts).
 */
export function AppearanceSwitch({ compact = false }: { compact?: boolean }) {
  const mode = useAppearance((s) => s.mode)
  const density = useAppearance((s) => s.density)
  const setMode = useAppearance((s) => s.setMode)
  const setDensity = useAppearance((s) => s.setDensity)

  const items: MenuProps['items'] = [
    { type: 'group', label: '主题', children: MODES.map((m) => ({ key: `mode:${m.key}`, label: m.label })) },
    { type: 'divider' },
    {
      type: 'group',
      label: '密度',
      children: DENSITIES.map((d) => ({ key: `density:${d.key}`, label: d.label })),
    },
  ]
  const onClick: MenuProps['onClick'] = ({ key }) => {
    const [kind, value] = key.split(':')
    if (kind === 'mode') setMode(value as ThemeMode)
    else setDensity(value as Density)
  }

  return (
    <Dropdown
      trigger={['click']}
      menu={{ items, onClick, selectable: true, selectedKeys: [`mode:${mode}`, `density:${density}`] }}
    >
      <Button type="text" icon={<BgColorsOutlined />} aria-label={APPEARANCE_LABEL} data-testid="appearance">
        {compact ? null : APPEARANCE_LABEL}
      </Button>
    </Dropdown>
  )
}
