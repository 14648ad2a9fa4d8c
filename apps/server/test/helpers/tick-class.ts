import v8 from 'node:v8'

/**
 * The heap-snapshot id of the hidden class of the `process.nextTick` entry that will call `marker`
 * (a named function declaration: the snapshot names closures by their declared name). Ids are stable
 * for one object through collections, so two entries whose ids are equal were built on the same
 * class. Used in a child process of its own: a snapshot of a test worker's heap would take long.
 */
export async function tickClassId(marker: () => void): Promise<number | undefined> {
  process.nextTick(marker)
  // the entry waits in the queue until this function awaits: the snapshot is taken before that
  const stream = v8.getHeapSnapshot()
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return classOfEntry(JSON.parse(Buffer.concat(chunks).toString()), marker.name)
}

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; edge_fields: string[]; node_types: [string[]]; edge_types: [string[]] }
  }
  nodes: number[]
  edges: number[]
  strings: string[]
}

function classOfEntry(s: Snapshot, markerName: string): number | undefined {
  const { meta } = s.snapshot
  const nodeWidth = meta.node_fields.length
  const edgeWidth = meta.edge_fields.length
  const [TYPE, NAME, ID, EDGES] = ['type', 'name', 'id', 'edge_count'].map((f) => meta.node_fields.indexOf(f))
  const namedEdge = (type: number) => !['element', 'hidden'].includes(meta.edge_types[0][type])
  const firstEdge: number[] = []
  for (let node = 0, edge = 0; node < s.nodes.length; node += nodeWidth) {
    firstEdge[node] = edge
    edge += s.nodes[node + EDGES] * edgeWidth
  }
  /** Each edge of `node` as its name (for named kinds) and target. */
  const edgesOf = (node: number) =>
    Array.from({ length: s.nodes[node + EDGES] }, (_, k) => {
      const at = firstEdge[node] + k * edgeWidth
      const type = s.edges[at]
      return { name: namedEdge(type) ? s.strings[s.edges[at + 1]] : undefined, to: s.edges[at + 2] }
    })
  let marker: number | undefined
  for (let node = 0; node < s.nodes.length; node += nodeWidth)
    if (
      meta.node_types[0][s.nodes[node + TYPE]] === 'closure' &&
      s.strings[s.nodes[node + NAME]] === markerName
    )
      marker = node
  if (marker === undefined) return undefined
  for (let node = 0; node < s.nodes.length; node += nodeWidth) {
    const edges = edgesOf(node)
    if (!edges.some((e) => e.name === 'callback' && e.to === marker)) continue
    const map = edges.find((e) => e.name === 'map')
    return map && s.nodes[map.to + ID]
  }
  return undefined
}
