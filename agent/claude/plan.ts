import type { TranscriptFollowers } from './transcript-followers.js';

/**
 * The plan of the last ExitPlanMode call in a transcript: the model's `plan` input, as the
 * transcript keeps it (the hook's tool_input is empty in 2.1.332). Read through the agent's one
 * reader of that transcript, so it costs nothing when a timeline already follows it.
 */
export async function planInTranscript(transcripts: TranscriptFollowers, path: string | null, waitMs = 4_000): Promise<string | null> {
  if (!path) return null;
  const reader = transcripts.acquire(path);
  // Claude may write the call's line a moment after its hook fires: look again for a while.
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      await reader.poll();
      const call = reader
        .entries()
        .reverse()
        .find((e) => e.kind === 'tool-call' && e.name === 'ExitPlanMode');
      const plan = call?.kind === 'tool-call' ? (call.input as { plan?: unknown } | null)?.plan : undefined;
      if (typeof plan === 'string' && plan.trim()) return plan.trim();
      if (Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    transcripts.release(reader);
  }
}
