import { Button, Result } from 'antd'
import { useLocation, useNavigate } from 'react-router'

export const FORBIDDEN_TITLE = '无权访问'
export const FORBIDDEN_TEXT = '你没有打开此页面的权限，如需使用请联系管理员授权。'

/** What a page the user may not open shows instead of an empty screen and a refusal toast. */
export function ForbiddenPage() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  return (
    <Result
      status="403"
      title={FORBIDDEN_TITLE}
      subTitle={FORBIDDEN_TEXT}
      extra={[
        <Button key="home" type="primary" onClick={() => navigate('/body')}>
          返回首页
        </Button>,
        // DESIGN.md §20: the requestable roles that would open this page, on 我的权限
        <Button key="ask" onClick={() => navigate(`/myaccess?path=${encodeURIComponent(pathname)}`)}>
          申请权限
        </Button>,
      ]}
    />
  )
}
