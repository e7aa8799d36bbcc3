// The answers being written right now, one per conversation, so that POST /stop, deleting the
// conversation or the member leaving can stop the model at the runtime.
export interface RunningAnswer {
  userId: string;
  messageId: string;
  controller: AbortController;
}

/** The reason a stopped answer's signal carries. */
export class AnswerStopped extends Error {
  constructor() {
    super('The answer was stopped.');
    this.name = 'AnswerStopped';
  }
}

export class RunningAnswers {
  private readonly byConversation = new Map<string, RunningAnswer>();

  get(conversationId: string): RunningAnswer | undefined {
    return this.byConversation.get(conversationId);
  }

  start(conversationId: string, a: RunningAnswer): void {
    this.byConversation.set(conversationId, a);
  }

  finish(conversationId: string, messageId: string): void {
    if (this.byConversation.get(conversationId)?.messageId === messageId) this.byConversation.delete(conversationId);
  }

  isRunning(messageId: string): boolean {
    for (const a of this.byConversation.values()) if (a.messageId === messageId) return true;
    return false;
  }

  /** Stops the conversation's answer when it is the member's; whether one was running. */
  stop(userId: string, conversationId: string): boolean {
    const a = this.byConversation.get(conversationId);
    if (!a || a.userId !== userId) return false;
    a.controller.abort(new AnswerStopped());
    return true;
  }

  stopAll(): void {
    for (const a of this.byConversation.values()) a.controller.abort(new AnswerStopped());
  }
}
