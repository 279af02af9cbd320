"""Requests the bot must decline, by category, each with one clear message.

Explainable pattern rules, not a model: each category pairs an *action* with its *object* and, where
the words alone are innocent, an *intent* — so "what counts as a valid receipt" and "how do I update
my own home address" pass while "make me a receipt for a night I didn't stay" and "get me my
teammate's home address" are declined. The categories (and their messages, :data:`MESSAGES`):

* ``fabricate`` — fabricating or altering documents or evidence: a falsifying verb (fake, forge,
  backdate, mock up…) with a document, or an editing verb (change, edit, make…) with a document and a
  deceptive purpose ("so it looks…", "for a night I didn't stay", "higher than I paid").
* ``deceive`` — deceiving an insurer or the employer: lying to / misleading them, hiding a condition or
  fact from them, wording a claim or report so it "looks like" something else, claiming what did not
  happen, acting so that they do not find out.
* ``others_data`` — obtaining other people's personal or confidential data: a request verb (get, pull,
  look up, tell me…) with another person's address, phone, salary, health or disciplinary details.
* ``bypass_control`` — getting around an approval, limit, access or security control (splitting a bill
  to stay under an approval limit, someone else's login, disabling monitoring).
* ``off_topic`` — tasks unrelated to the policies: writing code, essays, poems, jokes, homework.

Questions *about* these things (what the penalty is, how to report it, whether it is allowed) are
not declined: the rules need the asker to want it done (first person or a request to the bot) and a
"reporting/asking about" cue vetoes the harmful reading (:data:`ABOUT`). The same categories are in
the LLM grounding prompt (:data:`PROMPT_RULES`, used by :mod:`core.llm.prompt`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text import nfkc

_DOC = (r"(?:receipts?|invoices?|bills?|certificates?|(?:sick|doctor'?s?|medical)\s+notes?|prescriptions?|"
        r"discharge\s+summar(?:y|ies)|reports?|records?|documents?|paperwork|letters?|signatures?|dates?|"
        r"timesheets?|time\s+sheets?|tickets?|boarding\s+pass(?:es)?|statements?|pay\s*slips?|payslips?|"
        r"quotes?|estimates?|evidence|photos?|proof|stamps?|expense\s+reports?|hotel\s+folio)")
_FALSIFY = (r"(?:fake|faked|faking|forge[ds]?|forging|fabricat\w*|falsif\w*|counterfeit\w*|backdat\w*|"
            r"post-?dat\w*|doctor(?:ed|ing)?(?=\s+(?:a|an|the|my|this|that|it|them|these|those|his|her)\b)|tamper\w*(?:\s+with)?|photoshop\w*|mock(?:ed|ing)?\s+up|"
            r"knock(?:ed|ing)?\s+up|whip(?:ped)?\s+up|cook(?:ed|ing)?\s+up|make\s+up|made\s+up|invent\w*|"
            r"copy\s+(?:my\s+)?(?:manager|boss|doctor)'?s?\s+signature|sign\s+(?:it\s+)?(?:as|for)\s+my\s+"
            r"(?:manager|boss|doctor))")
_EDIT = (r"(?:alter\w*|chang\w*|edit\w*|modif\w*|amend\w*|adjust\w*|tweak\w*|rewrit\w*|redo|redid|swap\w*|"
         r"replac\w*|white\s*out|scratch\w*\s+out|bump\w*\s+up|inflat\w*|increas\w*|round\w*\s+up|pad\w*|"
         r"make|made|create|generate|produce|print|draw\s+up|write\s+up|draft|put\s+together|get)")
_TRICK = (r"(?:so\s+(?:that\s+)?(?:it|they|this|the\s+\w+|my\s+\w+)\s+"
          r"(?:looks?|appears?|seems?|reads?|shows?|"
          r"thinks?|believes?|assumes?)"
          r"|(?:look|appear|seem)s?\s+(?:like|as\s+if|as\s+though|legit|genuine|real|official)"
          r"|(?:a|the)\s+(?:\w+\s+)?(?:night|day|trip|meal|dinner|visit|taxi|stay|purchase|expense|hotel|ride|"
          r"journey|flight)\w*\s+(?:i|we)\s+"
          r"(?:didn'?t|did\s+not|never|actually\s+(?:didn'?t|crashed|stayed)|wasn'?t|was\s+not)"
          r"|(?:i|we)\s+(?:didn'?t|did\s+not|never)\s+(?:actually\s+)?(?:pay|paid|spend|spent|incur|buy|bought|"
          r"stay|stayed|take|took|go|went)"
          r"|(?:more|higher|bigger|larger)\s+than\s+(?:i|we|it)\s+(?:actually\s+)?(?:paid|spent|cost)"
          r"|without\s+(?:anyone|them|the\s+\w+|my\s+\w+|hr|finance)\s+(?:noticing|knowing|finding\s+out|"
          r"realising|realizing)"
          r"|(?:earlier|later|different)\s+date|after\s+the\s+waiting\s+period|before\s+(?:the\s+)?(?:policy|cover)"
          r"\s+(?:started|began)|to\s+(?:get|have)\s+(?:it|them|this)\s+(?:paid|reimbursed|approved|covered|"
          r"accepted)|so\s+(?:i|we)\s+(?:can|could)\s+(?:still\s+)?(?:claim|get\s+(?:paid|reimbursed)|expense)"
          r"|so\s+(?:that\s+)?(?:it|the\s+\w+|my\s+\w+)\s+(?:is|falls?|counts?|qualifies|gets?\s+counted)\s+"
          r"(?:in|within|into|under|inside|as)\b"
          r"|(?:that|which)\s+(?:never|didn'?t|did\s+not|wasn'?t|was\s+not)\s+(?:actually\s+)?(?:happen|happened|"
          r"take\s+place|took\s+place|exist|existed)"
          r"|\b(?:i|we)\s+(?:was|were)\s+actually\b|\beven\s+though\s+(?:i|we|it|he|she|they)\s+(?:was|were|"
          r"wasn'?t|weren'?t|didn'?t|did\s+not|never|had\s+not|hadn'?t)\b)")
_PAYOFF = (r"(?:so\s+(?:that\s+)?(?:it|they|this|the\s+\w+|my\s+\w+)\s+(?:gets?|is|are|will\s+be|can\s+be)\s+"
           r"(?:paid|reimbursed|approved|covered|accepted|refunded)|to\s+get\s+(?:it\s+|them\s+)?(?:paid|"
           r"reimbursed|approved|covered|refunded))")
"""Getting paid as the purpose of *altering a document* (honest documents need no altering)."""
_ASKER = (r"(?:\b(?:can|could|would|will)\s+(?:you|u)\b|\b(?:best|easiest|quickest|simplest|safest|smartest)"
          r"\s+way\b|\bway\s+to\b|\b(?:trick|hack|loophole|workaround)\b|\bhelp\s+(?:me|us)\b|\bhow\s+(?:do|can|could|should|would|"
          r"might)\s+(?:i|we|one)\b|\b(?:i|we)\s+(?:want|need|would\s+like|wanna|plan|intend|am\s+going|'m\s+"
          r"going|are\s+going)\b|\b(?:i'd|we'd)\s+like\b|\bis\s+there\s+(?:a|any)\s+way\b|\bwhat'?s\s+the\s+best"
          r"\s+way\b|\bbest\s+way\s+to\b|\btips?\s+(?:for|on)\b|\bshould\s+(?:i|we)\b|\bcan\s+(?:i|we)\b|"
          r"\bteach\s+me\b|\bshow\s+me\s+how\b|^\W*(?:please\s+)?(?:just\s+)?(?:make|create|write|generate|"
          r"draft|fake|forge|fabricate|falsify|backdate|doctor|photoshop|mock|whip|alter|change|edit|modify|"
          r"get|give|pull|find|look\s+up|tell|send|share|dig|list|help|compose|bypass|disable|turn|split|hide|"
          r"word|phrase|break|spread|divide)\b|\blet'?s\b|\bwhat\s+"
          r"(?:should|do)\s+(?:i|we)\s+(?:say|write|put|tell))")
ABOUT = re.compile(
    r"\b(?:report(?:ing)?\s+(?:(?:a|an|the|my|this|it\s+to\s+the)\s+)?(?:colleague|co-?worker|someone|somebody|"
    r"suspected|suspicious|possible|fraud|misconduct|concern|violation|wrongdoing|manager|boss|him|her|"
    r"them)|"
    r"whistle-?blow\w*|penalt\w*|consequences?|disciplin\w*\s+(?:for|if)|what\s+happens\s+(?:if|when)|"
    r"is\s+it\s+(?:illegal|allowed|ok(?:ay)?|fraud|legal|against)|am\s+i\s+allowed|are\s+we\s+allowed|"
    r"(?:spot|detect|verify|check\s+(?:if|whether)|recogni[sz]e|prevent|avoid\s+(?:being\s+)?(?:scammed|"
    r"defrauded))\b|suspect\w*|accused|by\s+mistake|accidentally|(?:correct|fix)\s+(?:a|an|the|my)\s+"
    r"(?:mistake|error|typo)|mistake\s+on|wrong\s+(?:date|amount|name))", re.I)
"""Cues that a question is *about* misconduct (its penalty, how to report or prevent it, correcting an
honest mistake) rather than a request to commit it: they veto every rule except ``off_topic``."""

_PERSON = (r"(?:colleague|co-?worker|teammate|team\s+mate|team\s+member|manager|boss|supervisor|employee|"
           r"everyone|everybody|new\s+hire|hire|joiner|new\s+joiner|people|team\s+lead|lead|"
           r"staff\s+member|direct\s+report|report|neighbou?r|ex|friend|intern|contractor|candidate|"
           r"applicant|person|someone|somebody|cfo|ceo|hr\s+person|recruiter|member)")
_OTHER = (rf"(?:\b(?:my|our|a|the|that|this|another|other|new)\s+(?:\w+\s+)?{_PERSON}(?:'s|s')|"
          rf"\bsomeone\s+else'?s|\bsomebody\s+else'?s|\bother\s+people'?s|\bother\s+employees'?|"
          rf"\b(?:his|her|their)\b|\b(?:of|for|about|on)\s+(?:my\s+|a\s+|the\s+|our\s+|every\s+|all\s+)?"
          rf"(?:\w+\s+)?{_PERSON}s?\b|\b(?:my|our|the)\s+(?:\w+\s+)?{_PERSON}s?\s+(?:has|had|have|got|is|are|"
          rf"was|were)\b)")
_DATA = (r"(?:(?:home|personal|private|residential|postal|mailing)\s+address|address(?:es)?|"
         r"(?:personal|mobile|"
         r"cell|home|private|phone)\s+(?:phone\s+)?numbers?|phone\s+numbers?|mobile\s+numbers?|e-?mail\s+"
         r"address|salar(?:y|ies)|pay(?:\s+grade|\s+slip|\s+rate)?|compensation|bonus(?:es)?|wages?|"
         r"(?:medical|health|sick(?:ness)?)\s+(?:records?|history|details|information|info|conditions?|"
         r"leave|notes?)|diagnos[ie]s|(?:disciplinary|performance)\s+(?:records?|history|details|reviews?|"
         r"actions?|files?)|personnel\s+files?|hr\s+(?:files?|records?)|(?:social\s+security|ssn|passport|"
         r"aadhaar|pan|national\s+id)\s*(?:numbers?)?|bank\s+(?:account\s+)?details|date\s+of\s+birth|"
         r"birthdays?|background\s+check|criminal\s+record|whereabouts|location|(?:written\s+)?warnings)")
_FETCH = (r"(?:what(?:'s|\s+is|\s+are)|where\s+(?:is|are)|get|pull|fetch|find|look\s+up|look\s+into|tell|"
          r"give|share|send|show|see|access|check|dig\s+up|"
          r"dig\s+out|find\s+out|grab|read|view|open|list|export|download|copy|forward|reveal|know|obtain)")

_CONTROL = (r"(?:approvals?|sign-?offs?|pre-?approvals?|limits?|caps?|controls?|checks?|audits?|"
            r"auditors?|rules?|security|firewall|vpn|mfa|2fa|two[- ]factor|multi[- ]factor|monitoring|"
            r"tracking|logging|dlp|filters?|blocks?|restrictions?|review|policy|system|antivirus|"
            r"endpoint\s+protection|access\s+controls?|password\s+policy|expense\s+system)")
_EVADE = (r"(?:bypass\w*|get\s+a?round|got\s+a?round|workaround\s+(?:for|to)|circumvent\w*|work\s+around|"
          r"get\s+past|sneak\s+(?:past|"
          r"around)|dodge|evade|override|disabl\w*|turn(?:ing)?\s+off|switch(?:ing)?\s+off|beat|game|hack|"
          r"trick|skip|avoid\s+(?:triggering|the\s+need\s+for))")

RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (category, name, re.compile(pattern, re.I)) for category, name, pattern in (
        ("fabricate", "falsify-document",
         rf"\b{_FALSIFY}\b(?:\W+\w+){{0,6}}?\W+(?:{_DOC}|claims?|forms?)\b"
         rf"|\b{_DOC}\b(?:\W+\w+){{0,4}}?\W+(?:be\s+)?{_FALSIFY}\b"),
        ("fabricate", "fake-document",
         rf"\b(?:fake|forged|bogus|phony|phoney|false|fraudulent|counterfeit|"
         rf"backdated|made-up)\s+(?:\w+\s+)?{_DOC}\b"),
        ("fabricate", "document-for-nonevent",
         rf"\b{_DOC}\b.{{0,60}}?\b(?:that|which)\s+(?:never|didn'?t|"
         rf"did\s+not|wasn'?t|was\s+not)\s+(?:actually\s+)?(?:happen|"
         rf"happened|take\s+place|took\s+place|exist|existed)\b"),
        ("fabricate", "edit-to-mislead",
         rf"\b{_EDIT}\b(?:\W+\w+){{0,8}}?\W+{_DOC}\b.{{0,80}}?(?:{_TRICK}|{_PAYOFF})"),
        ("deceive", "fraud-goal",
         r"\b(?:commit|get\s+away\s+with|pull\s+off|help\s+(?:me|us)\s+with)\W+(?:\w+\W+){0,3}?(?:fraud|a\s+scam"
         r"|insurance\s+scam)\b"),
        ("deceive", "lie-to",
         r"\b(?:lie|lying|lied)\s+(?:to|on|about|in)\b|\b(?:mislead|deceiv\w*|trick|fool|"
         r"con|cheat|scam|defraud|hoodwink|dupe)\w*\s+(?:the\s+|my\s+|our\s+)?(?:insur\w*|"
         r"company|employer|hr|finance|manager|boss|auditors?|claims?\s+team|them|it|"
         r"underwriters?|assessors?|adjusters?)\b"),
        ("deceive", "hide-fact",
         r"\b(?:hide|hiding|conceal\w*|cover\w*\s+up|hush\w*\s+up|leav\w*\s+(?:\w+\s+){0,2}?out|"
         r"omit\w*|not\s+(?:mention|declare|disclose|tell|report)\w*|"
         r"without\s+(?:mentioning|declaring|disclosing|telling|reporting)|keep\w*\s+"
         r"(?:\w+\s+){0,3}(?:quiet|secret|hidden|off)|avoid\s+(?:declaring|disclosing|"
         r"mentioning|telling))\b.{0,80}?\b(?:insur\w*|underwrit\w*|proposal|form|"
         r"application|company|employer|hr|finance|manager|boss|them|claim)\b"),
        ("deceive", "not-find-out",
         r"\b(?:so|that)\s+(?:the\s+|my\s+|our\s+)?(?:insur\w*|company|employer|hr|"
         r"finance|manager|boss|auditors?|they|nobody|no\s+one)\s+(?:doesn'?t|don'?t|"
         r"won'?t|will\s+not|does\s+not|do\s+not|never|can'?t|cannot)?\s*"
         r"(?:find\w*\s+out|notic\w*|realis\w*|realiz\w*|knows?|catch\w*|"
         r"spot\w*|suspect\w*)\b(?<!\bknow)"),
        ("deceive", "word-it-so",
         rf"\b(?:word|phrase|describe|frame|present|spin|write|put|fill\s+(?:in|out)|"
         rf"answer|explain|report|tell|say|claim)\w*\b.{{0,80}}?{_TRICK}"),
        ("deceive", "pretend",
         r"\b(?:pretend\w*|make\s+(?:it\s+)?(?:look|seem|appear)|act\s+as\s+if|"
         r"say|tell\s+(?:them|the\s+\w+|hr|my\s+\w+)|claim|report)\b.{0,60}?"
         r"\b(?:stolen|sick|ill|injured|an\s+accident|robbed|broken|lost|damaged|"
         r"business|work(?:-related)?|a\s+client)\b.{0,40}?\b(?:when|but|although|"
         r"though|even\s+though)\s+(?:\w+\s+){0,3}(?:actually|really|wasn'?t|isn'?t|"
         r"didn'?t|was\s+not|did\s+not|never|just)\b"),
        ("deceive", "fake-event",
         r"\b(?:fake|faking|feign\w*|stage|staging|invent\w*)\s+(?:a\s+|an\s+|my\s+|"
         r"the\s+)?(?:\w+\s+)?(?:illness|injury|accident|theft|burglary|sick\s+day|"
         r"sickness|break-?in|robbery|loss|claim|emergency|death|hospitali[sz]ation|"
         r"appointment|excuse|alibi|doctor'?s\s+visit|funeral|family\s+emergency)\b"
         r"|\b(?:call\w*\s+in|go\s+off)\s+sick\b.{0,40}\b(?:not|n't|actually|really)\b"),
        ("deceive", "report-as",
         r"\b(?:report|claim|say|list|record|describe|file|put)\w*\s+(?:it|this|that|them|"
         r"the\s+\w+|my\s+\w+)\s+(?:down\s+)?as\s+(?:a\s+|an\s+)?(?:stolen|theft|lost|"
         r"damaged|accident\w*|work|business|storm|break-?in|burglary)\b"
         r"(?=.{0,80}\b(?:but|although|though|actually|really|in\s+fact|wasn'?t|"
         r"didn'?t|not)\b)|\b(?:but|although|though|actually|really|in\s+fact)\b.{0,80}"
         r"\b(?:report|claim|say|list|record|describe|file)\w*\s+(?:it|this|that|them)\s+"
         r"as\s+(?:a\s+|an\s+)?(?:stolen|theft|lost|damaged|accident\w*|work|business)\b"),
        ("deceive", "mislabel",
         r"\bby\s+(?:saying|claiming|pretending|calling|listing|label+ing|marking|coding|"
         r"booking|putting|describing|filing)\s+(?:it|them|this|that|she|he|they|him|her|"
         r"the\s+\w+)\b"),
        ("deceive", "misstate-when",
         r"\b(?:tell|say|claim|report|write|state)\w*\b.{0,60}\b(?:only\s+)?(?:just\s+)?"
         r"(?:happened|started|began|occurred|discovered|found|noticed)\b.{0,60}\b"
         r"(?:although|though|even\s+though|actually|really|in\s+fact)\b"),
        ("deceive", "personal-as-business",
         r"\b(?:personal|private|family|holiday|vacation|friend'?s?|weekend|leisure|"
         r"wife'?s?|husband'?s?|partner'?s?|spouse'?s?)\b.{0,60}"
         r"\bas\s+(?:a\s+|an\s+)?(?:business|work|client|company)\b"),
        ("others_data", "other-persons-data",
         rf"\b{_FETCH}\b.{{0,60}}?{_OTHER}.{{0,40}}?\b{_DATA}\b"
         rf"|\b{_FETCH}\b.{{0,60}}?\b{_DATA}\b.{{0,40}}?{_OTHER}"),
        ("others_data", "colleague-health",
         r"\b(?:which|who)\s+(?:of\s+)?(?:my|our|the)\s+(?:\w+\s+)?"
         r"(?:colleagues|co-?workers|teammates|team|employees|staff|people)\s+"
         r"(?:are|is|has|have|had|were|was|got)\b.{0,40}\b(?:sick|stress|burn-?out|maternity|medical|"
         r"health|disciplinary|pregnan\w*|disabilit\w*|therapy|rehab|"
         r"warnings?|performance\s+improvement|pip|fired|terminated|"
         r"laid\s+off)"),
        ("others_data", "colleague-status",
         rf"\b(?:is|are|was|were|has|have)\s+(?:my|our|the|a)\s+(?:\w+\s+){{0,2}}?"
         rf"{_PERSON}s?(?:\s+(?-i:[A-Z][a-z]+))?\s+(?:pregnant|sick|ill|"
         rf"on\s+(?:sick|medical|maternity|stress)\s+leave|in\s+rehab|in\s+"
         rf"therapy|being\s+fired|getting\s+fired|on\s+a\s+pip|under\s+"
         rf"investigation|disabled|depressed|diagnosed|seeing\s+a\s+therapist)"),
        ("others_data", "what-pay",
         rf"\bwhat\s+(?:salary|pay|bonus|compensation|raise)\s+(?:does|do|did|will)\s+"
         rf"(?:my|our|the)\s+(?:\w+\s+)?{_PERSON}s?\s+(?:get|earn|make|receive)"),
        ("others_data", "where-lives",
         r"\bwhere\s+(?:does|do|did)\s+(?:my|our|the|this|that)\s+(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|ex|friend|employee|"
         r"intern|supervisor|neighbou?r)s?\s+(?:live|stay|reside)"
         rf"|\bwhere\s+(?:the|my|our|a)\s+(?:\w+\s+)?{_PERSON}s?\s+(?:lives|stays|"
         rf"resides)\b"),
        ("others_data", "who-earns",
         r"\bhow\s+much\s+(?:does\s+|is\s+|do\s+)?(?:my\s+|our\s+|the\s+)?(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|cfo|ceo|(?-i:[A-Z][a-z]+))s?\s+"
         r"(?:earns?|makes?|gets?\s+paid|is\s+paid|paid)\b|\b(?-i:[A-Z][a-z]+)'s\s+"
         r"(?:personal\s+|private\s+|home\s+)?(?:salary|pay|address|phone|mobile|"
         r"number|diagnosis|medical|health|disciplinary|performance\s+review)"),
        ("bypass_control", "evade-control",
         rf"\b{_EVADE}\b(?:\W+\w+){{0,5}}?\W+{_CONTROL}\b"),
        ("bypass_control", "split-to-stay-under",
         r"\b(?:split\w*|break\w*\s+up|break\w*\s+(?:\w+\s+){0,3}?"
         r"in(?:to)?|divid\w*|spread\w*)\b.{0,60}?"
         r"\b(?:so|to)\b.{0,40}?\b(?:under|below|within|avoid|"
         r"doesn'?t\s+need|don'?t\s+need|without|nobody|no\s+one)\b"
         r".{0,30}?"
         r"\b(?:limits?|approv\w*|threshold|cap|sign-?off|review)"),
        ("bypass_control", "borrowed-credentials",
         r"\b(?:use|using|log\s*in\s+(?:with|as)|borrow)\w*\s+"
         r"(?:my\s+|a\s+|the\s+)?(?:\w+\s+)?(?:manager|boss|"
         r"colleague|co-?worker|teammate|someone\s+else|admin)'?s?\s+"
         r"(?:login|password|account|credentials|card|badge|token|"
         r"approval|access)"),
        ("bypass_control", "impersonate",
         rf"\b(?:log\s*(?:in|on)|sign\s+in|pose|act)\s+as\s+(?:my\s+|the\s+|a\s+)?"
         rf"(?:\w+\s+)?(?:{_PERSON}|admin|administrator|someone\s+else)\b"),
        ("bypass_control", "unauthorised-access",
         r"\b(?:access|get\s+into|open|see|read)\b.{0,60}\b(?:not|n't)"
         r"\s+(?:authori[sz]ed|allowed|supposed|permitted|cleared)"),
        ("off_topic", "write-content",
         r"^\W*(?:hey\W+|hi\W+|please\s+|ok\W+)?(?:(?:can|could|would|will)\s+you"
         r"\s+)?(?:please\s+)?(?:write|compose|generate|draft|create|make|give|"
         r"tell|code|produce|come\s+up\s+with|help\s+me\s+(?:write|with))\s+"
         r"(?:me\s+|us\s+)?(?:a\s+|an\s+|some\s+|another\s+|one\s+)?(?:[\w'-]+\s+){0,3}?"
         r"(?:poem|essay|story|song|joke|haiku|limerick|rap|riddle|novel|"
         r"screenplay|code|script|program|function|class|query|regex|"
         r"sql|python|javascript|java|bash|html|css|app|website|homework|"
         r"assignment|tweet|speech|toast|recipe|fan\s*fiction|cover\s+letter|resume|cv)s?\b"),
        ("off_topic", "chit-chat",
         r"\btell\s+me\s+(?:a\s+|another\s+|some\s+)?(?:joke|riddle|fun\s+fact|"
         r"story)s?\b|\b(?:debug|fix|refactor|review|optimi[sz]e)\s+(?:my|this|the)\s+"
         r"(?:code|script|function|program|query|sql|regex|python)\b|\bwhat'?s\s+the\s+"
         r"(?:weather|score|capital\s+of|meaning\s+of\s+life)\b|\bwho\s+won\s+the\b"
         r"|\b(?:solve|calculate)\s+(?:this|my)\s+(?:equation|math|homework|integral)\b"
         r"|\btranslate\s+(?:this|the\s+following)\s+(?:song|poem|text|paragraph|"
         r"message)\b"),
    ))
"""(category, rule name, pattern); the first match decides (see :func:`check`)."""

MESSAGES = {
    "fabricate": (
        "I can't help create, alter or backdate receipts, invoices, certificates, signatures or other "
        "evidence: that is falsification, and the policies treat it as fraud (claims or expenses backed by "
        "false documents are refused and can lead to disciplinary or legal action). If a document is lost "
        "or wrong, ask whoever issued it for a corrected copy, or ask the claims team or HR how to proceed."),
    "deceive": (
        "I can't help mislead an insurer or the company: hiding a fact, misstating what happened or wording "
        "a claim, form or report so it reads differently from the truth is misrepresentation, which can void "
        "the cover or lead to disciplinary action. I can tell you what the policy asks you to disclose or "
        "report, and how."),
    "others_data": (
        "I can't look up or share another person's personal or confidential information (home address, "
        "phone number, salary, health or disciplinary details). Ask the person directly, or HR if there is a "
        "legitimate need; I can explain what the privacy policy says."),
    "bypass_control": (
        "I can't help get around an approval, limit, access or security control. If a rule doesn't fit your "
        "situation, ask your manager or the policy owner about an exception; I can tell you what the policy "
        "says about approvals and limits."),
    "off_topic": (
        "I only answer questions about the company's policies, with citations to them, so I can't write "
        "code, essays, jokes or other content unrelated to them. Ask me about a policy: expenses, leave, "
        "benefits, insurance, conduct."),
}
"""One message per category (shown as the answer; the rule name goes to the log and details)."""

PROMPT_RULES = (
    "Decline, briefly and without quoting sources, any request to: (a) fabricate or alter documents or "
    "evidence (receipts, invoices, certificates, dates, signatures); (b) deceive an insurer or the employer "
    "(hide a condition or fact, misstate what happened, word a claim or report so it looks like something "
    "else); (c) obtain another person's personal or confidential data (address, phone, salary, health or "
    "disciplinary details); (d) bypass an approval, limit, access or security control; (e) do tasks "
    "unrelated to the policies (writing code, essays, jokes). Questions about what the policies say on "
    "these topics (penalties, how to report, what must be disclosed) are fine to answer.")
"""The same categories for the LLM grounding prompt (:data:`core.llm.prompt.SYSTEM_PROMPT`)."""


@dataclass(frozen=True)
class Decline:
    """A declined request: its ``category`` (a key of :data:`MESSAGES`), the ``rule`` that fired and the
    ``message`` to show."""

    category: str
    rule: str
    message: str


def check(question: str) -> Decline | None:
    """The :class:`Decline` for ``question``, or ``None`` when the bot may answer it.

    Misconduct rules need the asker to want it done (:data:`_ASKER`: "can you", "help me", "how do I",
    "I need to", an imperative; not needed for ``others_data``: asking for the data is the request) and
    are vetoed by an "asking about it" cue (:data:`ABOUT`); ``off_topic`` needs neither.
    """
    text = " ".join(nfkc(question).replace("’", "'").split())
    wants = re.search(_ASKER, text, re.I) is not None
    about = ABOUT.search(text) is not None
    for category, name, pattern in RULES:
        if category != "off_topic" and (about or (category != "others_data" and not wants)):
            continue
        if pattern.search(text):
            return Decline(category, name, MESSAGES[category])
    return None


def unsafe_rule(question: str) -> str | None:
    """Name of the rule that declines ``question`` (``None`` when it may be answered)."""
    decline = check(question)
    return decline.rule if decline else None
