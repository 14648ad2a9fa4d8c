import { Form, Input } from 'antd'
import { STATUS, STATUS_LABEL } from '@amg/contract'
import { RadioGroup, TextArea } from '../../components'
import { antdRules } from '../../lib/validation'

/** SPEC.md §2: status 1 启用, 2 禁用. */
export const GROUP_STATUS_OPTIONS = [
  { label: STATUS_LABEL[STATUS.enabled], value: STATUS.enabled },
  { label: STATUS_LABEL[STATUS.disabled], value: STATUS.disabled },
] as const

export const groupStatusText = (status: number) =>
  STATUS_LABEL[status === STATUS.enabled ? STATUS.enabled : STATUS.disabled]

/** The basic-info fields of a group (name, enable status, a 3–5 row description), for antd Form. */
export function GroupFields() {
  return (
    <>
      <Form.Item label="用户组名称" name="groupName" rules={antdRules.groupName}>
        <Input placeholder="请输入用户组名称" maxLength={64} />
      </Form.Item>
      <Form.Item
        label="启用状态"
        name="status"
        rules={antdRules.groupStatus}
        tooltip="启用时，组内用户获得该组关联的角色；停用后不再获得。"
      >
        <RadioGroup options={GROUP_STATUS_OPTIONS} />
      </Form.Item>
      <Form.Item label="描述" name="description">
        <TextArea placeholder="请输入描述" autoSize={{ minRows: 3, maxRows: 5 }} maxLength={500} />
      </Form.Item>
    </>
  )
}

/** The columns of a group's linked roles and users, and of their candidates (new group and edit). */
export const roleColumns = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 90 },
  { title: '角色名称', dataIndex: 'roleName', key: 'roleName' },
]
export const userColumns = [
  { title: 'ID', dataIndex: 'id', key: 'id', width: 90 },
  { title: '用户昵称', dataIndex: 'nickName', key: 'nickName' },
]
