import {
  ApartmentOutlined,
  AppstoreOutlined,
  ClusterOutlined,
  CrownOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  SafetyOutlined,
  SolutionOutlined,
  TeamOutlined,
  UserOutlined,
  UsergroupAddOutlined,
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
}

export const menuIcon = (name?: string): ReactNode =>
  name ? (ICONS[name] ?? <AppstoreOutlined />) : <AppstoreOutlined />
