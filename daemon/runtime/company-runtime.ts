import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Clock } from '../clock.js';
import type { IdGenerator } from '../ids.js';
import { tenantOf, type CompanyRef, type CompanyRuntime } from '../gateway/seam.js';
import { defaultEmitters, type EmitterRegistry } from '../events/emitters.js';
import { DEFAULT_MAX_DEPTH } from '../events/dispatch.js';
import { createMemoryEventLog, openEventLog } from '../events/log/index.js';
import { exactMatcher, type MatcherHook } from '../events/matchers.js';
import { eventRoutes } from '../events/routes.js';
import { createEventsService } from '../events/service.js';
import { createToolRegistry, type ToolDefinition } from '../events/tools.js';
import { createAgentsService } from './agents.js';
import type { RuntimeCore } from './core.js';
import { createMessenger } from './messages.js';
import { createQuestsService } from './quests.js';
import { runtimeRoutes } from './routes.js';
import type { CompanyServices, EmitInput, EventsService } from './services.js';
import { createSessionsService } from './sessions.js';
import { openRuntimeDocs } from './store.js';

export interface RuntimeOptions {
  company: CompanyRef;
  /** The Company's data folder (companyDataDir); unused with memory storage. */
  dir: string;
  storage: 'memory' | 'file';
  clock: Clock;
  ids: IdGenerator;
  emitters?: EmitterRegistry;
  matcher?: MatcherHook;
  /** More tools for configured events (beyond quests.create, quests.update, message_to, sessions.update). */
  tools?: ToolDefinition[];
  maxDepth?: number;
}

export interface OpenedRuntime extends CompanyRuntime {
  services: Required<CompanyServices> & { sessions: Required<CompanyServices['sessions']>; events: Required<EventsService> };
  close(): Promise<void>;
  /** Problems the event log met while opening (for the daemon log). */
  recovery: string[];
}

/** Opens one Company's runtime: its documents, its event log, the services over them, and its routes. */
export async function openCompanyRuntime(options: RuntimeOptions): Promise<OpenedRuntime> {
  const docs = await openRuntimeDocs(options.storage, options.dir);
  const log = options.storage === 'file' ? await openEventLog(options.dir, { clock: options.clock }) : createMemoryEventLog({ clock: options.clock });
  let services: OpenedRuntime['services'] | undefined;
  const core: RuntimeCore = {
    company: options.company,
    clock: options.clock,
    ids: options.ids,
    docs,
    emit: (input: EmitInput) => events.emit(input),
    indexConfigured: (cfg) => events.indexConfigured(cfg),
  };
  const events = createEventsService({
    core,
    log,
    emitters: options.emitters ?? defaultEmitters,
    matcher: options.matcher ?? exactMatcher,
    tools: createToolRegistry(options.tools),
    services: () => services!,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  });
  const sessions = createSessionsService(core);
  services = {
    company: options.company,
    agents: createAgentsService(core),
    sessions,
    quests: createQuestsService(core),
    messageTo: createMessenger(core, sessions),
    events,
  };

  const router = new Router();
  runtimeRoutes(router, services);
  eventRoutes(router, services);
  const routes = router.routes();
  const allowed = router.allowedMethods({ throw: true });

  return {
    services,
    recovery: log.recovery,
    // Unmatched paths fall through with 404 and no body: the app's fallback renders that.
    handle: (ctx: Context) => {
      // Defence in depth: the gateway chose this Company for this caller; a request for another
      // Company reaching this runtime is a wiring bug, and must never read or write its data.
      if (tenantOf(ctx).company.id !== options.company.id) throw new Error(`runtime of ${options.company.id} got a request for ${tenantOf(ctx).company.id}`);
      return allowed(ctx as any, () => routes(ctx as any, async () => {})) as Promise<void>;
    },
    async close() {
      await Promise.all([docs.runtime.flush(), docs.firings.flush()]);
      await log.close();
    },
  };
}
