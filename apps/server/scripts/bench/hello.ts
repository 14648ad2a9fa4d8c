/** The peer of the throughput figures: a bare Fastify hello-world on the same Node, nothing else. */
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/', async () => ({ hello: 'world' }))
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
