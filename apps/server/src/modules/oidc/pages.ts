import type { KoaContextWithOIDC } from 'oidc-provider'

/** The few pages the provider renders itself, in Chinese and in the console's colours. */

const escape = (text: unknown) => String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const page = (title: string, body: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f0f5ff;display:flex;align-items:center;justify-content:center;min-height:100vh;margin:0}
.card{background:#fff;border:1px solid #f0f0f0;border-radius:8px;padding:24px;width:380px;max-width:90vw}
h1{font-size:20px;margin:0 0 16px}p{color:#595959}code{color:#cf1322}
button{background:#1677ff;color:#fff;border:0;border-radius:6px;padding:8px 16px;font-size:14px;cursor:pointer}
button.plain{background:#fff;color:#000;border:1px solid #d9d9d9;margin-left:8px}</style></head>
<body><div class="card">${body}</div></body></html>`

/** An error the provider cannot send back to the application (a wrong redirect URI, an unknown client). */
export async function renderError(
  ctx: KoaContextWithOIDC,
  out: { error: string; error_description?: string },
) {
  ctx.type = 'html'
  ctx.body = page(
    '登录出错',
    `<h1>登录出错</h1><p>应用的登录请求无法完成，请联系应用的管理员。</p><p><code>${escape(out.error)}</code>${
      out.error_description ? `：${escape(out.error_description)}` : ''
    }</p>`,
  )
}

/** RP-initiated logout: the user confirms signing out of the provider. */
export async function logoutSource(ctx: KoaContextWithOIDC, form: string) {
  ctx.type = 'html'
  ctx.body = page(
    '退出登录',
    `${form}<h1>退出登录</h1><p>是否同时退出单点登录？</p>
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">退出</button>
<button class="plain" type="submit" form="op.logoutForm">仅退出该应用</button>`,
  )
}

export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
  ctx.type = 'html'
  ctx.body = page('已退出', '<h1>已退出登录</h1><p>您可以关闭此页面。</p>')
}
