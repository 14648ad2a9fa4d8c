import { afterAll, beforeAll, describe } from 'vitest'
import { hasCaddy, startCaddy, type RunningCaddy } from './helpers/caddy'
import {
  gatewayCases,
  serviceGatewayCases,
  startGatewayBackends,
  type GatewayBackends,
} from './helpers/gateway'
import { trustBoundaryCases } from './helpers/gateway-boundary'

/**
 * DESIGN.md §10: Debian's Caddy with deploy/caddy/Caddyfile (forward_auth), in front of a tiny
 * upstream that echoes who Caddy says the user is, asking the real app on a real port.
 */
const title = hasCaddy
  ? 'Caddy forward_auth in front of a service'
  : 'Caddy forward_auth in front of a service (skipped: no caddy binary on PATH; apt-get install caddy)'

describe.skipIf(!hasCaddy)(title, () => {
  let b: GatewayBackends
  let caddy: RunningCaddy
  /** the same gateway protecting the service orders (DESIGN.md §10a) */
  let caddyOrders: RunningCaddy

  beforeAll(async () => {
    b = await startGatewayBackends()
    caddy = await startCaddy(b.amsUrl, b.upstreamUrl)
    caddyOrders = await startCaddy(b.amsUrl, b.upstreamUrl, b.orders.key)
  }, 60_000)

  afterAll(async () => {
    await caddy?.stop()
    await caddyOrders?.stop()
    await b?.close()
  })

  gatewayCases(() => ({ baseUrl: `http://127.0.0.1:${caddy.port}`, t: b.t, w: b.w }))
  trustBoundaryCases(() => ({ port: caddy.port, b }))

  describe('one namespace per service', () => {
    serviceGatewayCases(() => ({
      amsGatewayUrl: `http://127.0.0.1:${caddy.port}`,
      ordersGatewayUrl: `http://127.0.0.1:${caddyOrders.port}`,
      t: b.t,
      w: b.w,
      orders: b.orders,
    }))
  })
})
