import type { OwnerLinks } from '../lib/owner-links'
import { LinkPanel, type LinkPanelProps } from './link-panel'

type OwnerLinkPanelProps<T extends { id: number }, C extends { id: number }> = Pick<
  LinkPanelProps<T, C>,
  'queryKey' | 'columns' | 'candidateColumns' | 'disabled'
> & {
  owner: number
  links: OwnerLinks<T, C>
  /** the placeholder of the list's search box and of the candidates' alike */
  placeholder: string
}

/** The link panel for one kind of link of one owner: its calls bound to the owner, its texts by kind. */
export function OwnerLinkPanel<T extends { id: number }, C extends { id: number }>(
  props: OwnerLinkPanelProps<T, C>,
) {
  const { owner, links, placeholder, ...shown } = props
  const { kind } = links
  return (
    <LinkPanel<T, C>
      {...shown}
      searchPlaceholder={placeholder}
      candidatePlaceholder={placeholder}
      unlinkConfirm={kind.unlinkConfirm}
      linkButtonText={kind.linkButtonText}
      expiry={kind.expiry}
      fetchLinked={(q) => links.list(owner, q)}
      unlink={(row) => links.unlink(owner, [row.id])}
      fetchCandidates={(keyword, pageNum) => links.candidates(owner, keyword, pageNum)}
      link={(ids, expiresAt) => links.link(owner, ids, expiresAt)}
      calls={{ link: [kind.candidatesCall, links.calls.link], unlink: [links.calls.unlink] }}
    />
  )
}
