import { DEFAULT_AUTH } from './config.js';

type Env = Record<string, string | undefined>;

/**
 * The two settings a test suite gives a daemon PROCESS (in-process tests inject a fake clock and
 * cheap costs instead): a cheaper password hash and a clock offset file. Each weakens a daemon that
 * serves real users — hashes made at the cheap cost stay cheap until their owner logs in again, and
 * whoever can write the file moves every expiry and throttle window — so one left in a production
 * environment must not be honoured quietly: a daemon refuses to start with either unless
 * SVC_ALLOW_TEST_SETTINGS=1 says, in the same environment, that this daemon serves no real users.
 */
const TEST_SETTING_NAMES = ['SVC_TEST_SCRYPT_N', 'SVC_TEST_CLOCK_FILE'] as const;
const ALLOW_TEST_SETTINGS = 'SVC_ALLOW_TEST_SETTINGS';

export interface TestSettings {
  /** The names that are set (empty: none, the normal case). */
  names: string[];
  scryptN?: number;
  /** Milliseconds added to the system clock, re-read on every call (daemon/clock.ts). */
  clockFile?: string;
}

/** The test settings of `env`, or an error naming the first one set without the opt-in. */
export function readTestSettings(env: Env): TestSettings {
  const names = TEST_SETTING_NAMES.filter((name) => env[name]);
  const allow = env[ALLOW_TEST_SETTINGS];
  if (allow !== undefined && allow !== '' && allow !== '1')
    throw new Error(
      `invalid ${ALLOW_TEST_SETTINGS} ${allow}: use 1 on a daemon that serves no real users, or unset it`,
    );
  if (names.length === 0) return { names: [] };
  if (allow !== '1')
    throw new Error(
      `${names[0]} is a test setting that weakens the daemon; refusing to start: unset it, or also set ${ALLOW_TEST_SETTINGS}=1 on a daemon that serves no real users`,
    );
  return {
    names,
    ...(env.SVC_TEST_SCRYPT_N ? { scryptN: testScryptN(env.SVC_TEST_SCRYPT_N) } : {}),
    ...(env.SVC_TEST_CLOCK_FILE ? { clockFile: env.SVC_TEST_CLOCK_FILE } : {}),
  };
}

/** SVC_TEST_SCRYPT_N: checked here, so a typo stops the start instead of failing every login later. */
function testScryptN(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2 ** 10 || n > DEFAULT_AUTH.passwordHash.N || (n & (n - 1)) !== 0)
    throw new Error(
      `invalid SVC_TEST_SCRYPT_N ${value}: a test setting; use a power of two from 1024 to ${DEFAULT_AUTH.passwordHash.N}, or unset it`,
    );
  return n;
}
