"""The decline rules, by category: (category, rule name, pattern), the first match deciding (see
:func:`core.answer.safety.check`). Patterns combine the word classes of :mod:`core.answer.safety_words`.
"""

from __future__ import annotations

import re

from core.answer.safety_words import (
    CONTROL,
    DATA,
    DOC,
    EDIT,
    EVADE,
    FALSIFY,
    FETCH,
    OTHER,
    PAYOFF,
    PERSON,
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
         r"wife'?s?|husband'?s?|partner'?s?|spouse'?s?)\b.{0,60}"
         r"\bas\s+(?:a\s+|an\s+)?(?:business|work|client|company)\b"),
        ("others_data", "other-persons-data",
         rf"\b{FETCH}\b.{{0,60}}?{OTHER}.{{0,40}}?\b{DATA}\b"
         rf"|\b{FETCH}\b.{{0,60}}?\b{DATA}\b.{{0,40}}?{OTHER}"),
        ("others_data", "colleague-health",
         r"\b(?:which|who)\s+(?:of\s+)?(?:my|our|the)\s+(?:\w+\s+)?"
         r"(?:colleagues|co-?workers|teammates|team|employees|staff|people)\s+"
         r"(?:are|is|has|have|had|were|was|got)\b.{0,40}\b(?:sick|stress|burn-?out|maternity|medical|"
         r"health|disciplinary|pregnan\w*|disabilit\w*|therapy|rehab|"
         r"warnings?|performance\s+improvement|pip|fired|terminated|"
         r"laid\s+off)"),
        ("others_data", "colleague-status",
         rf"\b(?:is|are|was|were|has|have)\s+(?:my|our|the|a)\s+(?:\w+\s+){{0,2}}?"
         rf"{PERSON}s?(?:\s+(?-i:[A-Z][a-z]+))?\s+(?:pregnant|sick|ill|"
         rf"on\s+(?:sick|medical|maternity|stress)\s+leave|in\s+rehab|in\s+"
         rf"therapy|being\s+fired|getting\s+fired|on\s+a\s+pip|under\s+"
         rf"investigation|disabled|depressed|diagnosed|seeing\s+a\s+therapist)"),
        ("others_data", "what-pay",
         rf"\bwhat\s+(?:salary|pay|bonus|compensation|raise)\s+(?:does|do|did|will)\s+"
         rf"(?:my|our|the)\s+(?:\w+\s+)?{PERSON}s?\s+(?:get|earn|make|receive)"),
        ("others_data", "where-lives",
         r"\bwhere\s+(?:does|do|did)\s+(?:my|our|the|this|that)\s+(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|ex|friend|employee|"
         r"intern|supervisor|neighbou?r)s?\s+(?:live|stay|reside)"
         rf"|\bwhere\s+(?:the|my|our|a)\s+(?:\w+\s+)?{PERSON}s?\s+(?:lives|stays|"
         rf"resides)\b"),
        ("others_data", "who-earns",
         r"\bhow\s+much\s+(?:does\s+|is\s+|do\s+)?(?:my\s+|our\s+|the\s+)?(?:\w+\s+)?"
         r"(?:colleague|co-?worker|teammate|manager|boss|cfo|ceo|(?-i:[A-Z][a-z]+))s?\s+"
         r"(?:earns?|makes?|gets?\s+paid|is\s+paid|paid)\b|\b(?-i:[A-Z][a-z]+)'s\s+"
         r"(?:personal\s+|private\s+|home\s+)?(?:salary|pay|address|phone|mobile|"
         r"number|diagnosis|medical|health|disciplinary|performance\s+review)"),
        ("bypass_control", "evade-control",
         rf"\b{EVADE}\b(?:\W+\w+){{0,5}}?\W+{CONTROL}\b"),
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
         rf"(?:\w+\s+)?(?:{PERSON}|admin|administrator|someone\s+else)\b"),
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
