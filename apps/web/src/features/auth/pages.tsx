import { Card, Empty, Spin } from 'antd'
import { MSG, routes, splitFrontEndAccess } from '@amg/contract'
import { useMemo } from 'react'
import { Outlet, useLocation, useNavigate, useSearchParams } from 'react-router'
import { SplitView } from '../../components/split-view'
import { useCanCall } from '../../lib/can-call'
import { TreeActionsHint } from '../../components/tree-actions'
import { toastSuccess } from '../../lib/feedback'
import { useSession } from '../../lib/session-store'
import type { AuthNode } from '../../lib/stores/auth-store'
import { Screen } from '../../lib/ui/screen'
import { useAuthDetail, useAuthTree, useInsertAuth, useUpdateAuth } from './api'
import { AuthForm, toRecord, type AuthFormValues } from './auth-form'
import { AUTH_TREE_ACTIONS, AuthTree } from './auth-tree'

const TOP_LEVEL = '无（顶级权限）'

/**
 * Permission management: the tree on the left, the add or edit form on the right (nested routes); on
 * a phone the tree on top, the form below.
 */
export function AuthManagePage() {
  const location = useLocation()
  const mobile = useSession((s) => s.device) === 'mobile'
  const side = (
    <>
      <TreeActionsHint actions={AUTH_TREE_ACTIONS} />
      <Card
        size="small"
        title="权限树"
        // a phone keeps room for the form under the tree
        styles={{ body: { maxHeight: mobile ? '50vh' : 'calc(100vh - 260px)', overflow: 'auto' } }}
      >
        <AuthTree />
      </Card>
    </>
  )
  return (
    <Screen title="权限点管理">
      <SplitView sideWidth={320} gutter={16} mainKey={location.pathname + location.search} side={side}>
        <Outlet />
      </SplitView>
    </Screen>
  )
}

/** /authmanage/addform?parentCode=&level=&parentChName= (top level when absent). */
export function AuthAddFormPage() {
  const [params] = useSearchParams()
  const { search } = useLocation()
  const navigate = useNavigate()
  const insert = useInsertAuth()
  const parentCode = params.get('parentCode') || null
  const levelParam = Number(params.get('level'))
  const level = Number.isInteger(levelParam) && levelParam > 0 ? levelParam : 1
  const parentChName = params.get('parentChName')
  const canAdd = useCanCall(routes.auth.insert)

  const submit = async (values: AuthFormValues) => {
    let res: { code: string; msg: string }
    try {
      res = await insert.mutateAsync(toRecord(values, { parentCode, level }))
    } catch {
      return // the HTTP layer has shown the message
    }
    toastSuccess(res.msg || MSG.created)
    // SPEC.md §2: creating a permission leads to its edit screen.
    navigate(`/authmanage/editform?${new URLSearchParams({ code: res.code, isLeaf: 'true' }).toString()}`)
  }

  return (
    <Screen title="新增权限">
      {canAdd ? (
        <AuthForm
          key={search /* a new parent starts a fresh form */}
          initialValues={{ seq: 1, frontEndAccesss: [], urlPatternInfos: [] }}
          showButtonType
          parentName={parentCode ? (parentChName ?? parentCode) : TOP_LEVEL}
          submitText="保存"
          submitting={insert.isPending}
          onSubmit={submit}
        />
      ) : (
        // the screen opens here; one who may not add picks a permission to read
        <Empty description="请在左侧权限树中选择权限" />
      )}
    </Screen>
  )
}

function findNode(nodes: readonly AuthNode[] | undefined, code: string): AuthNode | undefined {
  for (const node of nodes ?? []) {
    if (node.code === code) return node
    const hit = findNode(node.children, code)
    if (hit) return hit
  }
  return undefined
}

/** /authmanage/editform?code=&isLeaf= — the 按钮 option shows only for leaf nodes (SPEC.md §2). */
export function AuthEditFormPage() {
  const [params] = useSearchParams()
  const code = params.get('code') ?? ''
  const isLeaf = params.get('isLeaf') === 'true'
  const detail = useAuthDetail(code)
  const tree = useAuthTree()
  const update = useUpdateAuth()
  const canSave = useCanCall(routes.auth.update)
  const node = detail.data

  const initialValues = useMemo<AuthFormValues | null>(() => {
    if (!node) return null
    const front =
      node.frontEndAccesss?.map((i) => i.frontEndAccess) ?? splitFrontEndAccess(node.frontEndAccessList)
    return {
      type: node.type,
      status: node.status,
      enName: node.enName,
      chName: node.chName,
      seq: node.seq ?? 1,
      description: node.description ?? '',
      uniqueKey: node.uniqueKey ?? '',
      frontEndAccesss: front.map((frontEndAccess) => ({ frontEndAccess })),
      urlPatternInfos: (node.urlPatternInfos ?? []).map((p) => ({ method: p.method, uri: p.uri })),
    }
  }, [node])

  const parentName = node?.parentCode
    ? (findNode(tree.data, node.parentCode)?.chName ?? node.parentCode)
    : TOP_LEVEL

  const submit = async (values: AuthFormValues) => {
    if (!node) return
    try {
      await update.mutateAsync(
        toRecord(values, { code: node.code, parentCode: node.parentCode ?? null, level: node.level }),
      )
    } catch {
      return
    }
    toastSuccess(MSG.updated)
  }

  return (
    <Screen title="修改权限">
      {!code ? (
        <Empty description="请在左侧权限树中选择权限" />
      ) : detail.isLoading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : node && initialValues ? (
        <AuthForm
          key={`${node.code}:${String(detail.dataUpdatedAt)}`}
          initialValues={initialValues}
          showButtonType={isLeaf}
          parentName={parentName}
          submitText="保存"
          submitting={update.isPending}
          onSubmit={submit}
          readOnly={!canSave}
        />
      ) : (
        <Empty description="权限不存在" />
      )}
    </Screen>
  )
}
