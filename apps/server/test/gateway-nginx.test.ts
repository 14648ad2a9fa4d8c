import { afterAll, beforeAll, describe } from 'vitest'
import {
  gatewayCases,
  serviceGatewayCases,
  startGatewayBackends,
  type GatewayBackends,
} from './helpers/gateway'
import { trustBoundaryCases } from './helpers/gateway-boundary'
import { hasNginx, startNginx, type RunningNginx } from './helpers/nginx'

/**
 * DESIGN.md §10: Debian's nginx with deploy/nginx/auth-request.conf, in front of a tiny upstream
 * that echoes who nginx says the user is, asking the real app on a real port.
 */
describe.skipIf(!hasNginx)('nginx auth_request in front of a service', () => {
  let b: GatewayBackends
  let nginx: RunningNginx
  /** the same gateway protecting the service orders (DESIGN.md §10a) */
  let nginxOrders: RunningNginx

  beforeAll(async () => {
    b = await startGatewayBackends()
    nginx = await startNginx(b.amsUrl, b.upstreamUrl)
    nginxOrders = await startNginx(b.amsUrl, b.upstreamUrl, undefined, b.orders.key)
  }, 60_000)

  afterAll(async () => {
    await nginx?.stop()
    await nginxOrders?.stop()
    await b?.close()
  })

  gatewayCases(() => ({ baseUrl: `http://127.0.0.1:${nginx.port}`, t: b.t, w: b.w }))
  trustBoundaryCases(() => ({ port: nginx.port, b }))

  describe('one namespace per service', () => {
    serviceGatewayCases(() => ({
      amsGatewayUrl: `http://127.0.0.1:${nginx.port}`,
      ordersGatewayUrl: `http://127.0.0.1:${nginxOrders.port}`,
      t: b.t,
      w: b.w,
      orders: b.orders,
    }))
  })
})
