import { useEffect, useState } from 'react';
import { headersFor, post } from '../lib/api.js';
import { ErrorText, Field, Form, Page, Section, useAction } from '../lib/ui.js';
import type { Me } from './me.js';

/** Profile: display name, time zone, locale, and the avatar (uploaded as a data URL, shown from a blob). */
export function ProfilePage({ me, onChange }: { me: Me; onChange: () => void }) {
  const [name, setName] = useState(me.display_name ?? '');
  const [timezone, setTimezone] = useState(me.timezone ?? '');
  const [locale, setLocale] = useState(me.locale ?? '');
  const [saved, setSaved] = useState(false);
  const orNull = (v: string) => (v.trim() ? v.trim() : null);
  return (
    <Page title="Profile">
      <Section title="Account">
        <dl>
          <dt>E-mail</dt>
          <dd>{me.email ?? '—'}</dd>
          <dt>Wallet</dt>
          <dd>{me.wallet_address ?? '—'}</dd>
          <dt>Tier</dt>
          <dd>{me.tier}</dd>
        </dl>
      </Section>
      <Section title="Details">
        <Form
          submit="Save profile"
          onSubmit={async () => {
            await post('/api/auth/update-profile', {
              display_name: orNull(name),
              timezone: orNull(timezone),
              locale: orNull(locale),
            });
            setSaved(true);
            onChange();
          }}
        >
          <Field label="Display name" value={name} onChange={setName} required={false} autoComplete="name" />
          <Field
            label="Time zone"
            value={timezone}
            onChange={setTimezone}
            required={false}
            hint="An IANA zone, e.g. Europe/Paris or UTC."
          />
          <Field
            label="Locale"
            value={locale}
            onChange={setLocale}
            required={false}
            hint="A language tag, e.g. en-GB."
          />
        </Form>
        {saved ? <p role="status">Saved.</p> : null}
      </Section>
      <Section title="Avatar">
        <Avatar url={me.avatar_url} onChange={onChange} />
      </Section>
    </Page>
  );
}

function Avatar({ url, onChange }: { url: string | null; onChange: () => void }) {
  const [src, setSrc] = useState<string | null>(null);
  const { error, run } = useAction(async (file: File) => {
    if (file.size > 40 * 1024) throw new Error('The image is over 40 KiB: pick a smaller one.');
    const avatar = await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(new Error('The file could not be read.'));
      reader.readAsDataURL(file);
    });
    await post('/api/auth/update-avatar', { avatar });
    onChange();
  });
  // The avatar needs the bearer token, so an <img src> cannot fetch it: fetch, then show a blob URL.
  useEffect(() => {
    if (!url) return setSrc(null);
    let objectUrl: string | null = null;
    fetch(url, { headers: headersFor() })
      .then((r) => (r.ok ? r.blob() : null))
      .then((b) => b && setSrc((objectUrl = URL.createObjectURL(b))));
    return () => void (objectUrl && URL.revokeObjectURL(objectUrl));
  }, [url]);
  return (
    <div className="avatar-row">
      {src ? <img className="avatar" src={src} alt="Your avatar" width={64} height={64} /> : <p>No avatar yet.</p>}
      <div className="field">
        <label htmlFor="avatar-file">Upload an image (PNG, JPEG, WebP or GIF, at most 40 KiB)</label>
        <input
          id="avatar-file"
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          onChange={(e) => e.target.files?.[0] && void run(e.target.files[0])}
        />
      </div>
      <ErrorText error={error} />
    </div>
  );
}
