import type { OAuthGrantListResponse } from '../../shared/schemas/oauth.js';
import { del, get } from '../lib/api.js';
import { RecordTable } from '../lib/record-table.js';
import { ActionButton, Page, Section, useLoad, when } from '../lib/ui.js';

/**
 * Connected apps: the MCP clients the user allowed on the consent page, one row per grant (a
 * client, a Company, scopes). Revoking one ends its tokens at once: the app must sign in again.
 */
export function AppsPage() {
  const list = useLoad(() => get<OAuthGrantListResponse>('/api/oauth/grants'));
  return (
    <Page title="Connected apps">
      <Section title="Apps signed in over OAuth">
        <RecordTable
          error={list.error}
          rows={list.data?.grants}
          empty="No connected apps. An MCP client appears here once you allow it on the consent page."
          columns={[
            { head: 'App', cell: (g) => g.client.name ?? g.client.id },
            { head: 'Company', cell: (g) => g.company_name ?? g.company_id },
            { head: 'Scopes', cell: (g) => g.scopes.join(', ') },
            { head: 'Connected', cell: (g) => when(g.created_at) },
            { head: 'Last used', cell: (g) => when(g.last_used_at) },
          ]}
          actions={(g) => (
            <ActionButton
              danger
              label={`Revoke ${g.client.name ?? g.client.id} for ${g.company_name ?? g.company_id}`}
              onClick={async () => (await del(`/api/oauth/grants/${encodeURIComponent(g.id)}`), list.reload())}
            >
              Revoke
            </ActionButton>
          )}
        />
      </Section>
    </Page>
  );
}
