import { Col, ConfigProvider, Row } from 'antd'
import useCSSVarCls from 'antd/es/config-provider/hooks/useCSSVarCls'
import ErrorList from 'antd/es/form/ErrorList'
import { FormItemPrefixContext } from 'antd/es/form/context'
import useFormStyle from 'antd/es/form/style'
import { createContext, useContext, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CSSProperties, FormEvent, ReactNode } from 'react'

/**
 * antd's Form as it looks (its classes and styles, the error line and its motion) without antd's form
 * engine: the sign-in page's two required fields do not need it, and the engine (rc-field-form and
 * its async validator, about 25 kB gzip) would be the largest part of the first download
 * (DESIGN.md §12). The screens use antd's Form. The markup is Form and Form.Item's, horizontal and
 * without labels.
 */

interface FormLook {
  prefixCls: string
  /** the theme's classes every form element carries */
  themeCls: string
}
const FormLookContext = createContext<FormLook>({ prefixCls: 'ant-form', themeCls: '' })

export function LightForm({
  id,
  size,
  onSubmit,
  children,
}: {
  id: string
  size: 'small' | 'middle' | 'large'
  onSubmit: () => void
  children: ReactNode
}) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls('form')
  const rootCls = useCSSVarCls(prefixCls)
  const [hashId, cssVarCls] = useFormStyle(prefixCls, rootCls)
  const look = useMemo(
    () => ({ prefixCls, themeCls: `${cssVarCls} ${rootCls} ${hashId}` }),
    [prefixCls, cssVarCls, rootCls, hashId],
  )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    e.stopPropagation()
    onSubmit()
  }
  return (
    <FormLookContext.Provider value={look}>
      <form
        id={id}
        autoComplete="off"
        className={`${prefixCls} ${prefixCls}-horizontal ${prefixCls}-${size} ${look.themeCls}`}
        onSubmit={submit}
      >
        {children}
      </form>
    </FormLookContext.Provider>
  )
}

const NO_ERRORS: ReactNode[] = []

/**
 * One Form.Item: the control, and under it the field's error (`fieldId` names the error line for the
 * control's aria-describedby). While the error shows, it takes the place of the item's bottom margin,
 * so the form does not grow (as antd does).
 */
export function LightFormItem({
  fieldId,
  error,
  style,
  children,
}: {
  fieldId?: string
  error?: string
  style?: CSSProperties
  children: ReactNode
}) {
  const { prefixCls, themeCls } = useContext(FormLookContext)
  const itemCls = `${prefixCls}-item`
  const itemRef = useRef<HTMLDivElement>(null)
  const [marginBottom, setMarginBottom] = useState<number | null>(null)
  useLayoutEffect(() => {
    if (error && itemRef.current) {
      setMarginBottom(Number.parseInt(getComputedStyle(itemRef.current).marginBottom, 10))
    }
  }, [error])
  const errors = useMemo(() => (error ? [error] : NO_ERRORS), [error])
  const status = error ? 'error' : ''
  const prefix = useMemo(() => ({ prefixCls, status }) as const, [prefixCls, status])
  const className = [
    itemCls,
    themeCls,
    error && `${itemCls}-with-help ${itemCls}-has-error`,
    `${itemCls}-horizontal`,
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <div ref={itemRef} className={className} style={style}>
      <Row className={`${itemCls}-row`}>
        <Col className={`${itemCls}-control`}>
          <div className={`${itemCls}-control-input`}>
            <div className={`${itemCls}-control-input-content`}>{children}</div>
          </div>
          {marginBottom !== null || error ? (
            <div className={`${itemCls}-additional`} style={marginBottom ? { minHeight: marginBottom } : {}}>
              <FormItemPrefixContext.Provider value={prefix}>
                <ErrorList
                  fieldId={fieldId}
                  errors={errors}
                  helpStatus={status}
                  className={`${itemCls}-explain-connected`}
                  // the margin comes back once the error line has gone
                  onVisibleChanged={(visible) => !visible && !error && setMarginBottom(null)}
                />
              </FormItemPrefixContext.Provider>
            </div>
          ) : null}
        </Col>
      </Row>
      {marginBottom ? (
        <div className={`${itemCls}-margin-offset`} style={{ marginBottom: -marginBottom }} />
      ) : null}
    </div>
  )
}
