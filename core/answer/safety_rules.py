"""The decline rules, by category: (category, rule name, pattern), the first match deciding (see
:func:`core.answer.safety.check`). Patterns combine the word classes of :mod:`core.answer.safety_words`;
this module holds ``fabricate`` and ``deceive``, :mod:`core.answer.safety_rules_access` the rest.
"""

from __future__ import annotations

import re

from core.answer.safety_pay import PAY_RULES
from core.answer.safety_rules_access import ACCESS_RULES
from core.answer.safety_words import (
    AUTHORITY,
    BOT,
    DOC,
    EDIT,
    EVIDENCE,
    FALSE_CUE,
    FALSIFY,
    NOTICE,
    PAYOFF,
    PERSON,
    PRODUCE,
    REVISE,
    TRICK,
)

RULES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (category, name, re.compile(pattern, re.I)) for category, name, pattern in (
        ("fabricate", "falsify-document",
         rf"\b{FALSIFY}\b(?:\W+\w+){{0,6}}?\W+(?:{DOC}|claims?|forms?)\b"
         rf"|\b{DOC}\b(?:\W+\w+){{0,4}}?\W+(?:be\s+)?{FALSIFY}\b"),
        ("fabricate", "fake-document",
         rf"\b(?:fake|forged|bogus|phony|phoney|false|fraudulent|counterfeit|"
         rf"backdated|made-up)\s+(?:\w+\s+)?{DOC}\b"),
        ("fabricate", "document-for-nonevent",
         rf"\b{DOC}\b.{{0,60}}?\b(?:that|which)\s+(?:never|didn'?t|"
         rf"did\s+not|wasn'?t|was\s+not)\s+(?:actually\s+)?(?:happen|"
         rf"happened|take\s+place|took\s+place|exist|existed)\b"),
        ("fabricate", "edit-to-mislead",
         rf"\b{EDIT}\b(?:\W+\w+){{0,8}}?\W+{DOC}\b.{{0,80}}?(?:{TRICK}|{PAYOFF})"),
        ("fabricate", "write-evidence-for-me",
         rf"{BOT}{PRODUCE}\s+(?:me\s+|us\s+)?(?:(?:a|an|the|one|another|new|fresh|replacement|duplicate|some|"
         rf"this|that|my)\s+)?(?:(?!(?:of|for|about|on|to|with|from)\b)[\w'-]+\s+){{0,2}}?{EVIDENCE}\b"
         rf"|^(?=.*\b{EVIDENCE}\b).*{BOT}{PRODUCE}\s+(?:me\s+|us\s+)?(?:a\s+)?(?:new|fresh|replacement|"
         rf"another|duplicate|similar)\s+one\b|^(?=.*\b(?:{EVIDENCE}|{DOC})\b).*{BOT}(?:{PRODUCE}|(?:whip|"
         rf"knock|mock|"
         rf"draw|type|cook|rustle)\s+(?:me|us)\s+up)\s+(?:me\s+|us\s+)?(?:up\s+)?"
         rf"(?:another|one\s+more)\b"
         r"|\b(?:add|put|insert|paste|stick|place)\w*\s+(?:a\s+|an\s+|the\s+|their\s+|his\s+|"
         r"her\s+)?(?:\w+\s+)?"
         r"(?:logo|letterhead|stamp|seal|watermark|hologram)s?\s+(?:on|to|onto|in)\b"),
        ("fabricate", "edit-evidence-for-me",
         rf"^(?=.*\b{EVIDENCE}\b).*?{BOT}(?:{REVISE}\s+(?:it|them|this|that|(?:the|my|this|that|our)\s+"
         rf"(?:[\w'-]+\s+){{0,2}}?(?:{EVIDENCE}|dates?|amounts?|totals?|years?|figures?|names?))|"
         rf"fill\s+(?:it|them|"
         rf"this|that)\s+(?:in|out|up))\b"),
        ("fabricate", "would-altered-doc-pass",
         rf"{NOTICE}\b.{{0,40}}?\bif\b(?:.{{0,60}}?\b(?:{DOC})\b.{{0,30}}?\b(?:said|says|showed|shows|read|"
         rf"reads|had|stated|states|listed|lists)\b|\s+(?:i|we)\s+(?:just\s+)?(?:chang|edit|alter|amend|"
         rf"modif|"
         rf"tweak|adjust|swap|replac|backdat|fak|forg|doctor)\w*\b.{{0,40}}?\b{DOC}\b)"),
        ("fabricate", "someone-elses-signature",
         rf"\b(?:copy|copied|paste|trace|scan|reuse|stick|forge|fake)\w*\s+(?:(?:his|her|their)|(?:my|the|"
         rf"our)"
         rf"\s+(?:\w+\s+)?{PERSON}'?s?|(?-i:[A-Z][a-z]+)'s)\s+(?:e-?)?(?:signatures?|initials|stamps?|seal)"
         rf"|\b(?:put|sign|add|use|draw|do)\w*\s+(?:(?:his|her|their)|(?:my|the|"
         rf"our)\s+(?:\w+\s+)?{PERSON}'?s?)"
         rf"\s+(?:e-?)?(?:signatures?|initials|stamps?|seal)\b.{{0,60}}?\b(?:myself|for\s+(?:him|her|them)|"
         rf"on\s+(?:his|her|their)\s+behalf|without\s+(?:him|her|them))\b"),
        ("fabricate", "want-doc-to-say",
         rf"^(?=.*\b{EVIDENCE}\b).*\b(?:need|want|would\s+like|get|have)\s+(?:it|them|this|that|the\s+\w+|"
         rf"my\s+\w+)\s+(?:to\s+)?(?:show|say|read|state|list)(?:ing|s)?\s+(?:\w+\s+){{0,2}}?(?:\d|"
         rf"(?:an?\s+)?(?:later|earlier|different|higher|bigger|another))"
         rf"|^(?=.*\b{EVIDENCE}\b).*\bmake\s+(?:it|them|this|that)\s+(?:look|seem|appear)\s+(?:like|as\s+"
         rf"(?:if|though)|real|genuine|original|official|legit)"),
        ("fabricate", "looks-issued-by",
         r"\b(?:looks?|seems?|appears?)\s+(?:like\s+)?(?:it\s+)?(?:came|comes|was\s+issued|is|was)\s+from\s+"
         r"(?:a|an|the|my)\s+(?:real\s+)?(?:clinic|hospital|doctor|gp|pharmacy|hotel|airline|insurer|bank|"
         r"vendor|supplier|restaurant|garage|lab)\b|\b(?:something|anything|one|a\s+\w+)\s+(?:that|which)\s+"
         r"(?:looks?|seems?|passes)\s+(?:real|genuine|official|legit|authentic|as\s+(?:real|genuine|"
         r"official))"),
    )) + PAY_RULES + tuple(
    (category, name, re.compile(pattern, re.I)) for category, name, pattern in (
        ("deceive", "fraud-goal",
         r"\b(?:commit|get\s+away\s+with|pull\s+off|help\s+(?:me|us)\s+with)\W+(?:\w+\W+){0,3}?(?:fraud|"
         r"a\s+scam"
         r"|insurance\s+scam)\b"),
        ("deceive", "lie-to",
         r"\b(?:lie|lying|lied)\s+(?:to|on|about|in)\b|\b(?:mislead|deceiv\w*|trick|fool|"
         r"con|cheat|scam|defraud|hoodwink|dupe)\w*\s+(?:the\s+|my\s+|our\s+)?(?:insur\w*|"
         r"company|employer|hr|finance|manager|boss|auditors?|claims?\s+team|them|it|"
         r"underwriters?|assessors?|adjusters?)\b"),
        ("deceive", "hide-fact",
         r"\b(?:hide|hiding|conceal\w*|cover\w*\s+up|hush\w*\s+up|(?:leav\w*|"
         r"left)\s+(?:\w+\s+){0,2}?(?:out|off)\b|"
         r"omit\w*|not\s+(?:mention|declare|disclose|tell|report)\w*|"
         r"without\s+(?:mentioning|declaring|disclosing|telling|reporting)|keep\w*\s+"
         r"(?:\w+\s+){0,3}(?:quiet|secret|hidden|off)|avoid\s+(?:declaring|disclosing|"
         r"mentioning|telling))\b.{0,80}?\b(?:insur\w*|underwrit\w*|proposal|form|"
         r"application|company|employer|hr|finance|manager|boss|them|claim|plan|policy|enrol\w*|report|"
         r"statement|disclosure|"
         r"declaration|questionnaire|renewal)\b"),
        ("deceive", "not-find-out",
         rf"\b(?:so|that)\s+(?:the\s+|my\s+|our\s+)?(?:{AUTHORITY}|they|nobody|no\s+one)"
         r"(?:\s+(?:team|department|people))?\s+(?:doesn'?t|don'?t|"
         r"won'?t|will\s+not|does\s+not|do\s+not|never|can'?t|cannot)?\s*"
         r"(?:find\w*\s+out|notic\w*|realis\w*|realiz\w*|knows?|catch\w*|"
         r"spot\w*|suspect\w*)\b(?<!\bknow)"),
        ("deceive", "keep-them-from-noticing",
         rf"\b(?:keep|stop|prevent)\w*\s+(?:the\s+|my\s+|our\s+)?(?:{AUTHORITY}|they|them|anyone|anybody)"
         rf"(?:\s+(?:team|department|people))?\s+from\s+(?:ever\s+)?(?:noticing|spotting|finding\s+out|"
         rf"realis\w*|realiz\w*|catching|suspecting)\b"),
        ("deceive", "so-they-dont-figure-out",
         r"\bso\s+(?:that\s+)?(?:he|she|they|nobody|no\s+one|(?:my|the|our)\s+\w+)\s+(?:doesn'?t|don'?t|"
         r"won'?t|"
         r"will\s+not|does\s+not|do\s+not|never|can'?t|cannot|wouldn'?t)\s+(?:find\s+out|figure\s+out|"
         r"work\s+out|notice|realis\w*|realiz\w*|know|catch\s+on|suspect|see|learn|hear)\b"),
        ("deceive", "word-it-so",
         rf"\b(?:word|phrase|describe|frame|present|spin|write|put|fill\s+(?:in|out)|"
         rf"answer|explain|report|tell|say|claim)\w*\b.{{0,80}}?{TRICK}"),
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
         r"wife'?s?|husband'?s?|partner'?s?|spouse'?s?|wedding|honeymoon|birthday|party|concert|"
         r"festival|anniversary|sightseeing|shopping)\b.{0,60}"
         r"\bas\s+(?:a\s+|an\s+)?(?:business|work|client|company)\b"),
        ("deceive", "make-them-believe",
         rf"\b(?:make|get|lead|have)\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them|him|her|"
         rf"everyone)\s+(?:to\s+)?(?:think|believe|assume|buy\s+(?:it|that|the\s+story))\b"
         rf"|\b(?:convinc|persuad)\w*\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them)\b.{{0,100}}?"
         rf"{FALSE_CUE}"),
        ("deceive", "make-it-sound",
         r"\bmake\s+(?:it|this|that|them|the\s+\w+|my\s+\w+|our\s+\w+)(?:\s+\w+)?\s+(?:look|sound|seem|"
         r"appear|"
         r"read)\s+(?:like|as\s+(?:if|though))"),
        ("deceive", "tell-them-untrue",
         rf"\b(?:tell|explain|say|write|draft|compose|send|e-?mail|inform|assure|answer|reply|respond|"
         rf"message|text)\w*\b.{{0,80}}?"
         rf"\b{AUTHORITY}\b.{{0,120}}?{FALSE_CUE}"),
        ("deceive", "cover-story",
         r"\b(?:come\s+up\s+with|think\s+(?:of|up)|cook\s+up|make\s+up|invent|craft|concoct)\s+(?:me\s+)?"
         r"(?:a\s+|an\s+|some\s+)?(?:good\s+|believable\s+|plausible\s+|convincing\s+|credible\s+|solid\s+)?"
         r"(?:cover\s+)?(?:story|excuse|alibi|lie|fib|explanation|reason)s?\b.{0,40}?(?:\bwhy\b|"
         r"\bfor\s+why\b|"
         r"\bto\s+(?:tell|give|explain|use|cover)\b|\bso\s+(?:that\s+)?(?:they|he|she|hr|the\s+\w+|"
         r"my\s+\w+)\b)"),
        ("deceive", "answer-to-get-paid",
         r"\b(?:answer|reply|respond|word|phrase)\w*\b.{0,60}?\bso\s+(?:that\s+)?(?:they|the\s+\w+|it|he|"
         r"she)\s+"
         r"(?:will\s+|would\s+|still\s+)?(?:pay|accept|approve|cover)s?\b"),
        ("deceive", "want-them-to-believe",
         rf"\b(?:need|want|get)\s+(?:the\s+|my\s+|our\s+)?(?:\w+\s+)?(?:{AUTHORITY}|them|him|her)\s+to\s+"
         rf"(?:think|believe|assume)(?!\s+(?:about|of|over)\b)"),
        ("deceive", "make-it-believable",
         r"\bmake\s+(?:it|this|that|the\s+story|my\s+story|them|him|her)\s+(?:\w+\s+)?(?:believable|"
         r"convincing|"
         r"credible|plausible|realistic|watertight|air-?tight|stick)\b|\bwhat(?:'?s|\s+is)\s+(?:my|our|"
         r"the)\s+"
         r"(?:cover\s+)?(?:story|excuse|alibi)\b|\bwhat\s+(?:story|excuse|alibi)\s+(?:do|should|can|"
         r"could)\s+(?:i|we)"
         r"\s+(?:give|tell|use)\b"),
        ("deceive", "say-untrue",
         r"\b(?:say|said|claim|claimed|state|declare|tell|told|put|write|report|list)\w*\b.{0,80}?(?:\(\s*"
         r"(?:it|he|she|they|i|we)\s+(?:isn'?t|isnt|wasn'?t|wasnt|aren'?t|weren'?t|doesn'?t|doesnt|didn'?t|"
         r"didnt|is\s+not|was\s+not|does\s+not|did\s+not)\b|\b(?:it'?s|that'?s)\s+(?:not\s+true|a\s+lie|"
         r"untrue))"),
        ("deceive", "so-they-think",
         rf"\bso\s+(?:that\s+)?(?:the\s+|my\s+|our\s+)?(?:{AUTHORITY}|he|she|they|everyone)\s+(?:will\s+)?"
         rf"(?:thinks?|believes?|assumes?)\b"),
        ("deceive", "ineligible-but-keep",
         r"\b(?:isn'?t|is\s+not|aren'?t|are\s+not|no\s+longer|not\s+(?:a|an)\s+\w+\s+any\s*more)\b.{0,80}?"
         r"\bbut\s+(?:i|we)\b.{0,40}?\b(?:keep|still\s+(?:claim|cover|get)|stay)\b"),
    )) + ACCESS_RULES
"""(category, rule name, pattern); the first match decides (see :func:`core.answer.safety.check`)."""
