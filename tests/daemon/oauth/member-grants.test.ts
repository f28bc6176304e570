import * as oauth from 'oauth4webapi';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createUser } from '../../helpers/accounts.js';
import { createCompany } from '../../helpers/keys.js';
import { clientOptions, consent, discover, oauthServerOf, REDIRECT_URI, registerClient } from '../../helpers/oauth.js';
import { joinAs } from '../../helpers/team.js';
import { testAppModes } from '../../helpers/test-app.js';

/** A grant speaks for a member in one Company: any member may consent, and it stops once they leave. */
for (const mode of testAppModes()) {
  test(`${mode.name}: a member's grant for a Company resolves while they belong to it, and not after`, async () => {
    const t = await mode.open();
    try {
      const as = await discover(t);
      const client = await registerClient(t, as);
      const owner = await createUser(t, { tier: 'company' });
      const companyId = (await createCompany(t, owner)).id;
      const member = await joinAs(t, owner, companyId, 'member');
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = await oauth.calculatePKCECodeChallenge(verifier);
      const stranger = await createUser(t, { tier: 'company' });
      assert.is((await consent(t, { client, user: stranger, companyId, challenge, state: 's' })).status, 403);
      const res = await consent(t, { client, user: member, companyId, challenge, state: 's' });
      assert.is(res.status, 200, res.text);
      const params = oauth.validateAuthResponse(as, client, new URL(res.body.redirect_to), 's');
      const redeemed = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        params,
        REDIRECT_URI,
        verifier,
        clientOptions(t),
      );
      const tokens = await oauth.processAuthorizationCodeResponse(as, client, redeemed);
      const resolved = await oauthServerOf(t).resolveAccessToken(tokens.access_token);
      assert.equal([resolved?.userId, resolved?.companyId], [member.user.id, companyId]);
      assert.is((await t.del(`/api/companies/${companyId}/members/${member.user.id}`, owner.auth)).status, 200);
      assert.is(await oauthServerOf(t).resolveAccessToken(tokens.access_token), null, 'no longer a member');
    } finally {
      await t.close();
    }
  });
}

test.run();
