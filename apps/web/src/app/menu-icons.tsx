import {
  ApartmentOutlined,
  AppstoreOutlined,
  ApiOutlined,
  AuditOutlined,
  ClusterOutlined,
  CrownOutlined,
  DashboardOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  LoginOutlined,
  SendOutlined,
  SafetyOutlined,
  SecurityScanOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
  UsergroupAddOutlined,
  WifiOutlined,
} from '@ant-design/icons'
import type { ReactNode } from 'react'

const ICONS: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  safety: <SafetyOutlined />,
  user: <UserOutlined />,
  team: <TeamOutlined />,
  crown: <CrownOutlined />,
  usergroup: <UsergroupAddOutlined />,
  key: <KeyOutlined />,
  apartment: <ApartmentOutlined />,
  cluster: <ClusterOutlined />,
  idcard: <IdcardOutlined />,
  solution: <SolutionOutlined />,
  monitor: <DashboardOutlined />,
  operlog: <AuditOutlined />,
  loginlog: <LoginOutlined />,
  online: <WifiOutlined />,
  analysis: <SecurityScanOutlined />,
  service: <ApiOutlined />,
  webhook: <SendOutlined />,
}

export const menuIcon = (name?: string): ReactNode =>
  name ? (ICONS[name] ?? <AppstoreOutlined />) : <AppstoreOutlined />
