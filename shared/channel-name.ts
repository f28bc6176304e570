/** A webhook channel's name: the `<channel>` of `webhook:<channel>` and of `POST /api/webhooks/{channel}`. */
const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function channelNameProblem(name: string): string | null {
  return CHANNEL_NAME.test(name)
    ? null
    : 'a channel name is 1-63 characters: lower-case letters, digits, _ and -, starting with a letter or digit';
}
