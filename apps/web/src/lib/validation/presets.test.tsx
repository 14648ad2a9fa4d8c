import { describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Button, Form, Input } from 'antd'
import { MSG, NAME_LABELS, checkMobile, checkOrgName, checkPassword, nameMessages } from '@amg/contract'
import { antdRules, rules, toAntdRules, validateValue } from '.'

describe('ready rule sets from the contract (SPEC.md §5)', () => {
  it('every name field refuses invisible and look-alike characters with the server message', async () => {
    const fields: [keyof typeof rules, string][] = [
      ['nickName', NAME_LABELS.nickName],
      ['realName', NAME_LABELS.realName],
      ['roleName', NAME_LABELS.roleName],
      ['groupName', NAME_LABELS.groupName],
      ['orgName', NAME_LABELS.organizationName],
      ['stationName', NAME_LABELS.stationName],
      ['chName', NAME_LABELS.chName],
      ['enName', NAME_LABELS.enName],
    ]
    for (const [field, label] of fields) {
      expect(await validateValue('admin\u200b', rules[field]), field).toBe(nameMessages.invisible(label))
      expect(await validateValue('\u202eadmin', rules[field]), field).toBe(nameMessages.invisible(label))
      expect(await validateValue('\u0430dmin', rules[field]), field).toBe(nameMessages.mixedScripts(label))
      // a compatibility form is a name: the server stores it normalised
      expect(await validateValue('ａｄｍｉｎ', rules[field]), field).toBeNull()
    }
    expect(await validateValue('', rules.realName)).toBeNull()
  })

  it('required messages', async () => {
    const cases: [keyof typeof rules, string][] = [
      ['roleName', MSG.roleNameRequired],
      ['roleType', MSG.roleTypeRequired],
      ['roleStatus', MSG.statusRequired],
      ['groupName', MSG.groupNameRequired],
      ['groupStatus', MSG.statusRequired],
      ['stationName', MSG.stationNameRequired],
      ['stationType', MSG.stationTypeRequired],
      ['authType', MSG.authTypeRequired],
      ['authStatus', MSG.statusRequired],
      ['enName', MSG.enNameRequired],
      ['chName', MSG.chNameRequired],
      ['seq', MSG.seqRequired],
      ['urlPatternInfos', MSG.urlPatternsRequired],
      ['nickName', MSG.nickNameRequired],
      ['userStatus', MSG.statusRequired],
      ['orgName', MSG.orgNameRequired],
    ]
    for (const [name, message] of cases) expect(await validateValue('', rules[name]), name).toBe(message)
    expect(await validateValue('   ', rules.roleName)).toBe(MSG.roleNameRequired)
    expect(await validateValue('管理员', rules.roleName)).toBeNull()
    expect(rules.roleName[0].trigger).toBe('blur')
  })

  it('mobile and password are optional and use the contract predicates', async () => {
    expect(await validateValue('', rules.mobile)).toBeNull()
    expect(await validateValue('1234', rules.mobile)).toBe(MSG.mobileInvalid)
    expect(await validateValue('13800138000', rules.mobile)).toBeNull()
    expect(checkMobile('1234')).toBe(MSG.mobileInvalid)
    expect(await validateValue('', rules.password)).toBeNull()
    expect(await validateValue('short', rules.password)).toBe(MSG.passwordPolicy)
    expect(await validateValue('Abcdefgh1234', rules.password)).toBeNull()
    expect(checkPassword('Abcdefgh1234')).toBeNull()
  })

  it("department name: required and no '-'", async () => {
    expect(await validateValue('研发-一部', rules.orgName)).toBe(MSG.orgNameNoHyphen)
    // the full-width hyphen is '-' once normalised, as the server stores it
    expect(await validateValue('研发－一部', rules.orgName)).toBe(MSG.orgNameNoHyphen)
    expect(checkOrgName('研发-一部')).toBe(MSG.orgNameNoHyphen)
    expect(await validateValue('研发部', rules.orgName)).toBeNull()
  })
})

describe('antd adapter', () => {
  function RoleForm({ onFinish }: { onFinish: (v: unknown) => void }) {
    return (
      <Form onFinish={onFinish}>
        <Form.Item label="角色名称" name="roleName" rules={antdRules.roleName}>
          <Input />
        </Form.Item>
        <Form.Item label="手机号" name="mobile" rules={antdRules.mobile}>
          <Input />
        </Form.Item>
        <Form.Item label="部门" name="org" rules={toAntdRules(rules.orgName)}>
          <Input />
        </Form.Item>
        <Button htmlType="submit">确认提交</Button>
      </Form>
    )
  }

  it('shows the asterisk for required rules and the first failing message; submits when valid', async () => {
    const onFinish = vi.fn()
    const user = userEvent.setup()
    const { container } = render(<RoleForm onFinish={onFinish} />)
    expect(container.querySelectorAll('.ant-form-item-required')).toHaveLength(2)
    await user.type(screen.getByLabelText('手机号'), '123')
    await user.click(screen.getByText('确认提交'))
    expect(await screen.findByText(MSG.roleNameRequired)).toBeInTheDocument()
    expect(screen.getByText(MSG.mobileInvalid)).toBeInTheDocument()
    expect(screen.getByText(MSG.orgNameRequired)).toBeInTheDocument()
    expect(onFinish).not.toHaveBeenCalled()
    await user.type(screen.getByLabelText('角色名称'), '审计员')
    await user.clear(screen.getByLabelText('手机号'))
    await user.type(screen.getByLabelText('部门'), '研发-部')
    await user.click(screen.getByText('确认提交'))
    expect(await screen.findByText(MSG.orgNameNoHyphen)).toBeInTheDocument()
    await user.clear(screen.getByLabelText('部门'))
    await user.type(screen.getByLabelText('部门'), '研发部')
    await user.click(screen.getByText('确认提交'))
    await waitFor(() =>
      expect(onFinish).toHaveBeenCalledWith({ roleName: '审计员', mobile: '', org: '研发部' }),
    )
  })
})
