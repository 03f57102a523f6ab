/**
 * Rules for orders to call a tool. Naming a tool is fine ("the search tool returns 20 records");
 * an order to call a destructive, outbound or executing tool is a directive when it comes with an
 * agent marker, a sweeping quantifier ("on every record"), a destination or a secret.
 */
import { URGENT_RE, hasAgentMarker, markersOf } from './agent-markers.ts';
import { DESTINATION, RISKY_COMMAND, SECRET_OBJECT, order, compile } from './lexicon.ts';
import { anchors, candidateSentences, matchesIn } from './anchors.ts';

const TOOL_CALL_RE =
  /\b(?:call|invoke|use|trigger|run|execute|fire)\s+(?:the\s+|your\s+|an?\s+)?(?:mcp\s+)?['"`]?([a-z][\w.:/-]*)['"`]?\s+(?:tool|function|mcp tool|action)\b|\b(?:call|invoke|trigger)\s+(?:the\s+)?['"`]?(forget|remember|validate_memory|[a-z]+_[a-z_]+)\b/g;
const TOOL_ANCHORS = anchors([['tool', 'function', 'action', 'call', 'invoke', 'trigger']]);
const TOOL_MARKUP_ANCHORS = anchors([
  ['<tool', '<function', '<invoke', '<antml', 'tool_calls', 'function_call'],
]);
const TOOL_MARKUP_RE =
  /<(?:tool_call|tool_use|function_call|function_calls|invoke|antml:invoke|antml:function_calls)\b|"(?:tool_calls|function_call)" ?:/;
const BARE_TOOL_ORDER_RE = compile(order('(?:call|invoke|trigger)'));

const DESTRUCTIVE_TOOL =
  /forget|delete|remove|drop|purge|wipe|erase|destroy|reset|clear|transfer|pay|validate_memory|remember|deploy|release|publish|merge/;
const OUTBOUND_TOOL =
  /send|email|mail|post|upload|http|fetch|request|webhook|slack|discord|browser|github|gitlab/;
const EXECUTING_TOOL =
  /shell|bash|terminal|exec|command|sql|python|code_interpreter|write_file|edit_file|create_file|overwrite/;

const RISKY_COMMAND_RE = compile(RISKY_COMMAND);
const DESTINATION_RE = compile(DESTINATION);
const SECRET_OBJECT_RE = compile(SECRET_OBJECT);
const QUANTIFIER_RE =
  /\b(?:all|every|each|entire|everything|any|scope ?= ?all|\d{2,} times|repeatedly|in a loop)\b/;
const SKIP_APPROVAL_RE =
  /\b(?:skip(?:ping)?|bypass(?:ing)?|without) (?:the )?(?:approval|review|confirmation|confirming|checks)/;
const AS_SYSTEM_INSTRUCTION_RE =
  /\bas (?:an? |the )?(?:system (?:instruction|prompt|message)|instruction for (?:all|every|future))/;
const TOUCHES_CI_RE = /\.github\/workflows|overwrite/;

function isPlantedCall(name: string, sentence: string, marked: boolean): boolean {
  if (DESTRUCTIVE_TOOL.test(name)) {
    return marked || QUANTIFIER_RE.test(sentence) || AS_SYSTEM_INSTRUCTION_RE.test(sentence);
  }
  if (OUTBOUND_TOOL.test(name)) {
    return marked || DESTINATION_RE.test(sentence) || SECRET_OBJECT_RE.test(sentence);
  }
  if (EXECUTING_TOOL.test(name)) {
    return (
      marked ||
      RISKY_COMMAND_RE.test(sentence) ||
      SECRET_OBJECT_RE.test(sentence) ||
      TOUCHES_CI_RE.test(sentence)
    );
  }
  return false;
}

export function findToolDirective(text: string): string | null {
  if (matchesIn(TOOL_MARKUP_ANCHORS, TOOL_MARKUP_RE, text)) return 'tool call directive';
  const sentences = candidateSentences(TOOL_ANCHORS, text);
  if (sentences.length === 0) return null;
  const markers = markersOf(text);
  for (const sentence of sentences) {
    for (const match of sentence.matchAll(TOOL_CALL_RE)) {
      // A bare tool name ("call remember ...") is only an order in the imperative.
      if (match[2] !== undefined && !BARE_TOOL_ORDER_RE.test(sentence)) continue;
      const name = match[1] ?? match[2] ?? '';
      const marked =
        hasAgentMarker(sentence, markers) || URGENT_RE.test(sentence) || SKIP_APPROVAL_RE.test(sentence);
      if (isPlantedCall(name, sentence, marked)) return 'tool call directive';
    }
  }
  return null;
}
