import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_URL, resolveConfigDir, resolveDataDir } from '../../shared/paths.js';

/** CONTRACT §2 and §5: where the daemon keeps its data and the CLI its config, in this order. */
test('data folder: --data, else $SVC_DATA_DIR, else $XDG_DATA_HOME/svc, else ~/.local/share/svc', () => {
  const env = { SVC_DATA_DIR: '/env/data', XDG_DATA_HOME: '/xdg/data', HOME: '/home/u' };
  assert.is(resolveDataDir('/flag', env), '/flag');
  assert.is(resolveDataDir(undefined, env), '/env/data');
  assert.is(resolveDataDir(undefined, { XDG_DATA_HOME: '/xdg/data', HOME: '/home/u' }), '/xdg/data/svc');
  assert.is(resolveDataDir(undefined, { HOME: '/home/u' }), '/home/u/.local/share/svc');
});

test('config folder: $SVC_CONFIG_DIR, else $XDG_CONFIG_HOME/svc, else ~/.config/svc', () => {
  assert.is(resolveConfigDir({ SVC_CONFIG_DIR: '/env/cfg', XDG_CONFIG_HOME: '/xdg/cfg', HOME: '/home/u' }), '/env/cfg');
  assert.is(resolveConfigDir({ XDG_CONFIG_HOME: '/xdg/cfg', HOME: '/home/u' }), '/xdg/cfg/svc');
  assert.is(resolveConfigDir({ HOME: '/home/u' }), '/home/u/.config/svc');
});

test('the default platform URL is the loopback daemon on 7878', () => {
  assert.is(DEFAULT_URL, 'http://127.0.0.1:7878');
});

test.run();
