import type { RouteRegistrar } from '../../http/route-registrar.js';
import * as z from 'zod';
import { validate } from '../../http/validate.js';
import { requireAgent, requireSession } from '../core.js';
import type { Emitted } from '../company-services.js';
import { answerOnce } from './idempotent-route.js';
import type { OpenedRuntime } from '../opened.js';
import { openedOf } from './opened-of.js';

const id = z.string().trim().min(1).max(200);
const scope = { agent_id: id, session_id: id.nullish(), quest_id: id.nullish(), caused_by: id.nullish() };

/** One cause per request; each shape names what the detector needs (docs/emitters.md §2). */
const reportBody = z.discriminatedUnion('cause', [
  z
    .object({
      cause: z.literal('command'),
      ...scope,
      command: z.string().min(1).max(10_000),
      exit_code: z.number().int(),
      stderr: z.string().max(100_000).optional(),
    })
    .strict(),
  z.object({ cause: z.literal('output'), ...scope, text: z.string().min(1).max(100_000) }).strict(),
  z
    .object({
      cause: z.literal('tool_call'),
      ...scope,
      tool: z.string().min(1).max(200),
      args: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  z
    .object({
      cause: z.literal('proposed_change'),
      ...scope,
      files: z.array(z.string().min(1).max(1_000)).min(1).max(10_000),
      lines_changed: z.number().int().min(0).optional(),
      summary: z.string().max(10_000).optional(),
    })
    .strict(),
  z.object({ cause: z.literal('idea'), ...scope, text: z.string().min(1).max(10_000) }).strict(),
]);

const askBody = z
  .object({
    agent_id: id,
    session_id: id.nullish(),
    quest_id: id.nullish(),
    question: z.string().max(4_000).optional(),
    text: z.string().max(4_000).optional(),
    options: z.array(z.string()).nullish(),
  })
  .strict()
  .refine((b) => (b.question ?? b.text ?? '').trim() !== '', {
    message: 'question is required (1-4000 characters)',
    path: ['question'],
  });
const answerBody = z
  .object({ answer: z.string().min(1).max(4_000), answered_by: z.string().trim().min(1).max(200).optional() })
  .strict();
const questionQuery = z.object({
  status: z.enum(['open', 'answered']).optional(),
  agent_id: id.optional(),
  session_id: id.optional(),
});

/**
 * The detector and question routes of a Company runtime (behind the tenant middleware: Bearer + X-Company).
 * `POST /api/detectors/report` takes one cause an agent (or its harness) observed and answers with
 * the events the detectors emitted for it — none when the cause breaks no rule.
 */
export function detectorRoutes(router: RouteRegistrar): void {
  router.post('/api/detectors/report', async (ctx) => {
    const body = validate(reportBody, ctx.request.body);
    const runtime = openedOf(ctx);
    // An agent's harness that retries a report after a time-out must not emit its events twice.
    ctx.body = await answerOnce(ctx, runtime.services.events, 'report', body, () => report(runtime, body));
  });

  const report = async ({ core, causes }: OpenedRuntime, body: z.infer<typeof reportBody>) => {
    await requireAgent(core, body.agent_id);
    if (body.session_id) await requireSession(core, body.session_id);
    const where = {
      agent_id: body.agent_id,
      session_id: body.session_id ?? null,
      quest_id: body.quest_id ?? null,
      caused_by: body.caused_by ?? null,
    };
    let emitted: Array<Emitted | null>;
    switch (body.cause) {
      case 'command':
        emitted = [
          await causes.reportCommand(where, { command: body.command, exit_code: body.exit_code, stderr: body.stderr }),
        ];
        break;
      case 'output':
        emitted = await causes.reportOutput(where, body.text);
        break;
      case 'tool_call':
        emitted = [await causes.reportToolCall(where, { tool: body.tool, args: body.args ?? {} })];
        break;
      case 'proposed_change':
        emitted = [
          await causes.reportProposedChange(where, {
            files: body.files,
            lines_changed: body.lines_changed,
            summary: body.summary,
          }),
        ];
        break;
      case 'idea':
        emitted = [await causes.reportIdea(where, { text: body.text })];
        break;
    }
    return { ok: true, emitted: emitted.filter((e): e is Emitted => e !== null) };
  };

  router.post('/api/questions', async (ctx) => {
    const body = validate(askBody, ctx.request.body);
    const { core, questions, services } = openedOf(ctx);
    await requireAgent(core, body.agent_id); // the runtime's 404 codes (agent_not_found, session_not_found)
    if (body.session_id) await requireSession(core, body.session_id);
    ctx.status = 201;
    ctx.body = await answerOnce(ctx, services.events, 'ask', body, async () => {
      const asked = await questions.ask({ ...body, question: (body.question ?? body.text)! });
      return { ok: true, question: asked.question, event: asked.emitted.event, fired: asked.emitted.fired };
    });
  });
  router.get(
    '/api/questions',
    async (ctx) =>
      void (ctx.body = { questions: await openedOf(ctx).questions.list(validate(questionQuery, ctx.query)) }),
  );
  router.post('/api/questions/:id/answer', async (ctx) => {
    const body = validate(answerBody, ctx.request.body);
    const answered = await openedOf(ctx).questions.answer(ctx.params.id!, body.answer, body.answered_by ?? 'user');
    ctx.body = { ok: true, question: answered.question, event: answered.emitted.event, fired: answered.emitted.fired };
  });
}
