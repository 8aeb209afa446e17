// The task of the rule worker pool (rule-pool.ts): one bot's decision on one inbound text,
// computed in a worker thread so that customer patterns never hold the event loop. It says
// when it starts (the budget counts evaluation, not the thread's start or the queue).
import type { MessagePort } from "node:worker_threads";
import { type BotConfig, type Decision, decide } from "./engine";

export type DecideTask = {
  bot: BotConfig;
  text: string;
  /** The reply id of a tap on buttons or a list, if the message is one. */
  replyId?: string | null;
  now: number;
  started: MessagePort;
};

export default function decideInWorker(task: DecideTask): Decision {
  task.started.postMessage("started");
  task.started.close();
  return decide(task.bot, task.text, new Date(task.now), task.replyId);
}
