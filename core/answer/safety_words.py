"""Word classes of the decline rules (:mod:`core.answer.safety_rules`): documents, falsifying and editing
verbs, deceptive purposes, people and their data, controls and ways around them, and the two cues
:func:`core.answer.safety.check` reads first — the asker wants it done (:data:`ASKER`) or asks *about* it
(:data:`ABOUT`). Round 2 (2026-12-02) added the request-to-the-bot cues (:data:`CLAUSE`, :data:`BOT`,
:data:`FRAME` for make-believe, :data:`NOTICE`), the evidence the bot never writes or edits
(:data:`EVIDENCE`, :data:`PRODUCE`, :data:`REVISE`), whom a deception targets (:data:`AUTHORITY`),
words marking a statement untrue (:data:`FALSE_CUE`) and approval thresholds (:data:`THRESHOLD`).

Each is a regular-expression fragment (a non-capturing group, matched case-insensitively) except
:data:`ABOUT`, a compiled pattern. The vocabularies are hand-written from the categories of issue 11
item 3 (not learned, not taken from evaluation questions).
"""

from __future__ import annotations

import re

DOC = (r"(?:receipts?|invoices?|bills?|certificates?|(?:sick|doctor'?s?|medical)\s+notes?|prescriptions?|"
        r"discharge\s+summar(?:y|ies)|reports?|records?|documents?|paperwork|letters?|signatures?|dates?|"
        r"timesheets?|time\s+sheets?|tickets?|pdfs?|scans?|screenshots?|boarding\s+pass(?:es)?|statements?|"
        r"pay\s*slips?|payslips?|"
        r"quotes?|estimates?|evidence|photos?|proof|stamps?|expense\s+reports?|hotel\s+folio)")
FALSIFY = (r"(?:fake|faked|faking|forge[ds]?|forging|fabricat\w*|falsif\w*|counterfeit\w*|backdat\w*|"
            r"post-?dat\w*|doctor(?:ed|ing)?(?=\s+(?:a|an|the|my|this|that|it|them|these|those|his|her)\b)|"
            r"tamper\w*(?:\s+with)?|photoshop\w*|mock(?:ed|ing)?\s+up|"
            r"knock(?:ed|ing)?\s+up|whip(?:ped)?\s+up|cook(?:ed|ing)?\s+up|make\s+up|made\s+up|invent\w*|"
            r"copy\s+(?:my\s+)?(?:manager|boss|doctor)'?s?\s+signature|sign\s+(?:it\s+)?(?:as|for)\s+my\s+"
            r"(?:manager|boss|doctor))")
EDIT = (r"(?:alter\w*|chang\w*|edit\w*|modif\w*|amend\w*|adjust\w*|tweak\w*|rewrit\w*|redo|redid|swap\w*|"
         r"replac\w*|white\s*out|scratch\w*\s+out|bump\w*\s+up|inflat\w*|increas\w*|round\w*\s+up|pad\w*|"
         r"make|made|create|generate|produce|print|draw\s+up|write\s+up|draft|put\s+together|get)")
TRICK = (r"(?:so\s+(?:that\s+)?(?:it|they|this|the\s+\w+|my\s+\w+)\s+"
          r"(?:looks?|appears?|seems?|sounds?|reads?|shows?|"
          r"thinks?|believes?|assumes?)"
          r"|\bas\s+(?:if|though)\s+(?:it|they|this|that|my|the|i|we|he|she)\b|(?:look|appear|seem|"
          r"sound)s?\s+(?:like|as\s+if|as\s+though|legit|genuine|real|official)"
          r"|(?:a|the)\s+(?:\w+\s+)?(?:night|day|trip|meal|dinner|visit|taxi|stay|purchase|expense|hotel|"
          r"ride|"
          r"journey|flight)\w*\s+(?:i|we)\s+"
          r"(?:didn'?t|did\s+not|never|actually\s+(?:didn'?t|crashed|stayed)|wasn'?t|was\s+not)"
          r"|(?:i|we)\s+(?:didn'?t|did\s+not|never)\s+(?:actually\s+)?(?:pay|paid|spend|spent|incur|buy|"
          r"bought|"
          r"stay|stayed|take|took|go|went)"
          r"|(?:more|higher|bigger|larger)\s+than\s+(?:i|we|it)\s+(?:actually\s+)?(?:paid|spent|cost)"
          r"|without\s+(?:anyone|them|the\s+\w+|my\s+\w+|hr|finance)\s+(?:noticing|knowing|finding\s+out|"
          r"realising|realizing)"
          r"|\bso\s+(?:that\s+)?(?:it|they|this|the\s+\w+|my\s+\w+)(?:\s+[\w']+){1,6}?\s+(?:look|sound|seem|"
          r"appear)s?\s+like\b"
          r"|(?:earlier|later|different)\s+date|after\s+the\s+waiting\s+period|"
          r"before\s+(?:the\s+)?(?:policy|cover)"
          r"\s+(?:started|began)|so\s+(?:i|we)\s+can\s+(?:re)?(?:submit|claim|use|expense|send)\s+(?:it|"
          r"them|this|that)\s+(?:again|"
          r"twice|a\s+second\s+time)|\b(?:he|she|they|it)\s+(?:only|actually)\s+(?:charged|cost|billed)|"
          r"to\s+(?:get|have)\s+(?:it|them|this)\s+(?:paid|reimbursed|approved|covered|"
          r"accepted)|so\s+(?:i|we)\s+(?:can|could)\s+(?:still\s+)?(?:claim|get\s+(?:paid|reimbursed)|"
          r"expense)"
          r"|so\s+(?:that\s+)?(?:it|the\s+\w+|my\s+\w+)\s+(?:is|falls?|counts?|qualifies|gets?\s+counted)\s+"
          r"(?:in|within|into|under|inside|as)\b"
          r"|(?:that|which)\s+(?:never|didn'?t|did\s+not|wasn'?t|was\s+not)\s+(?:actually\s+)?(?:happen|"
          r"happened|"
          r"take\s+place|took\s+place|exist|existed)"
          r"|\b(?:i|we)\s+(?:was|were)\s+actually\b|\beven\s+though\s+(?:i|we|it|he|she|they)\s+(?:was|were|"
          r"wasn'?t|weren'?t|didn'?t|did\s+not|never|had\s+not|hadn'?t)\b)")
PAYOFF = (r"(?:so\s+(?:that\s+)?(?:it|they|this|the\s+\w+|my\s+\w+)\s+(?:gets?|is|are|will\s+be|can\s+be)\s+"
           r"(?:paid|reimbursed|approved|covered|accepted|refunded)|to\s+get\s+(?:it\s+|them\s+)?(?:paid|"
           r"reimbursed|approved|covered|refunded))")
"""Getting paid as the purpose of *altering a document* (honest documents need no altering)."""
CLAUSE = r"(?:^|[.!?;:,(]\s*|\b(?:and|then|now|so)\s+)\W*(?:(?:please|pls|plz|kindly|just|hey|hi)\W+)*"
"""The start of a clause, where an imperative addressed to the bot begins ("…, fill it in", "and write…")."""
BOT = (rf"(?:\b(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:please|pls|kindly|just|quickly)\s+)*|"
       rf"\b(?:i\s+)?(?:need|want)\s+(?:you|u)\s+to\s+|{CLAUSE})")
"""A request *to the bot* to do what follows: "can you …", "I need you to …", or an imperative."""
FRAME = (r"(?:(?:^|[.!?;:,]\s*)\W*(?:please\s+|just\s+)?be\s+(?:the|my|a|an|our)\b|\bpretend\w*|\bimagine|"
         r"\bsuppose|\blet'?s\s+(?:say|imagine|pretend|suppose|assume)|"
         r"\brole[- ]?play\w*|\bact\s+(?:as|like)|\bplay\s+the\s+(?:role|part)|\byou\s+are\s+(?:now\s+)?"
         r"(?:my|the|a|an)\b|\byou'?re\s+(?:now\s+)?(?:my|the|a|an)\b|\bonce\s+upon\s+a\s+time|"
         r"\bhypothetical\w*|\bfor\s+(?:a|my|the)\s+(?:\w+\s+)?(?:story|novel|book|screenplay|script|play|"
         r"game)\b|\bif\s+i\s+were\s+writing\b|\basking\s+for\s+a\s+friend\b)")
"""Make-believe framing (role-play, "imagine the policy allowed…", a story): it addresses the bot, so the
request inside it is read as the asker's own (a frame never makes a request harmless)."""
NOTICE = (r"(?:\b(?:would|will|could|does|do|might)\s+(?:anyone|anybody|someone|they|it|hr|finance|"
          r"the\s+\w+(?:\s+team)?|my\s+\w+)\s+(?:even\s+)?(?:notice|find\s+out|catch|spot|check|care|know|"
          r"realis\w*|realiz\w*|be\s+(?:noticed|caught|spotted|detected|flagged)))")
"""Asking whether a deed would be noticed: wanting to get away with it."""
EVIDENCE = (r"(?:receipts?|invoices?|bills?|(?:medical|doctor'?s?|sick|fitness|(?:sick\s+)?leave|hospital|"
            r"clinic)\s+(?:certificates?|notes?|"
            r"letters?)|(?:train|flight|plane|bus|air|rail|parking)\s+tickets?|stubs?|certificates?|"
            r"sick\s+notes?|prescriptions?|discharge\s+summar(?:y|ies)|folios?|"
            r"boarding\s+pass(?:es)?|pay\s*slips?|salary\s+slips?|(?:letter|note|e-?mail|statement|"
            r"declaration)\s+(?:from|by|on\s+behalf\s+of|signed\s+by)\s+(?:my|the|a|an|our|his|her)\s+\w+)")
"""Documents that evidence a claim (narrower than :data:`DOC`): the bot never writes or edits one."""
PRODUCE = (r"(?:write|make|create|recreate|reproduce|replicate|generate|produce|draft|prepare|"
           r"type(?:\s+up)?|draw\s+up|"
           r"knock\s+(?:up|together)|throw\s+together|rustle\s+up|cook\s+up|"
           r"whip\s+up|mock\s+up|put\s+together|issue|design|fill\s+(?:in|out|up))")
"""Verbs asking the bot to produce a document (with :data:`EVIDENCE` after them: fabrication)."""
REVISE = (r"(?:redo|change|edit|alter|amend|modify|tweak|adjust|update|fix|rewrite|swap|replace|correct|"
          r"backdate|bump(?:\s+up)?|push|shift|move|increase|turn)")
"""Verbs asking the bot to change a document (with :data:`EVIDENCE` in the request: altering evidence)."""
AUTHORITY = (r"(?:insur\w*|underwrit\w*|claims?\s+(?:team|handler|officer|department)|assessors?|adjusters?|"
             r"company|employer|hr|finance|manager|boss|auditors?|supervisor|team\s+lead|payroll|police)")
"""Whom a deception is aimed at (the insurer or the employer and its functions)."""
FALSE_CUE = (r"(?:,\s*(?:he|she|they|it)\s+(?:wasn'?t|weren'?t|isn'?t|aren'?t|doesn'?t|don'?t|"
             r"didn'?t|hasn'?t|haven'?t)\W*$|\b(?:i|we|he|she|they)\s+(?:actually|really|in\s+fact)\s+"
             r"(?!(?:do|want|need|think|like|have)\b)\w+|"
             r"\b(?:i|we|he|she|they|it)\s+(?:was|were|is|are|am|did|do|does|had|has|have)(?:n'?t|\s+not)?"
             r"\s+(?:actually|really|in\s+fact)\b|\b(?:actually|really|in\s+fact)\s*,?\s*(?:i|we|he|she|they|"
             r"it)\s+(?:was|were|is|are|did|do|does|had|has|have)\b|\(\s*(?:it|he|she|they|i|we)\s+(?:isn'?t|"
             r"isnt|wasn'?t|wasnt|aren'?t|weren'?t|doesn'?t|doesnt|didn'?t|didnt|is\s+not|was\s+not|does|did|"
             r"is|was)\b|\b(?:he|she|they|it|i|we)\s+(?:does|do|did|is|was)\s*,?\s+but\b|\b(?:it'?s|"
             r"that'?s)\s+"
             r"(?:not\s+true|a\s+lie|untrue))")
"""Words saying that what the asker wants stated is untrue ("I was actually…", "(it isn't)", "he does,
but…")."""
THRESHOLD = (r"(?:\b(?:(?:approval|sign-?off|pre-?approval|spending|expense|purchase)\s+)?(?:limit|threshold|"
             r"cap|ceiling)s?\b|\b(?:over|above|more\s+than|exceed\w*|under|below|less\s+than)\s+(?:the\s+)?"
             r"(?:[$€£₹]\s*\d|\d[\d,.]*\s*(?:k|usd|eur|inr|rs|rupees|dollars|euros|pounds)\b)|\bneeds?\s+"
             r"(?:the\s+)?(?:\w+\s+)?(?:cfo|ceo|director|vp|approval|sign-?off)\b|"
             r"\b(?:pre-?)?approval\s+amount)")
"""An approval threshold (a limit, an amount it starts at, whose approval it needs)."""
ASKER = (r"(?:\b(?:can|could|would|will)\s+(?:you|u)\b|\b(?:best|easiest|quickest|simplest|safest|smartest)"
          r"\s+way\b|\bway\s+to\b|\b(?:trick|hack|loophole|workaround)\b|\bhelp\s+(?:me|us)\b|"
          r"\bhow\s+(?:do|can|could|should|would|"
          r"might)\s+(?:i|we|one)\b|\bhow\s+(?:does|did|would|might|could)\s+(?:someone|somebody|"
          r"a\s+(?:character|person|guy)|the\s+(?:character|hero|heroine))\b|\b(?:i|we)\s+(?:want|need|would\s+like|wanna|plan|intend|am\s+going|'m\s+"
          r"going|are\s+going)\b|\b(?:i'd|we'd)\s+like\b|\bis\s+there\s+(?:a|any|some)\s+way\b|"
          r"\bsome\s+way\b|\bwhat\s+if\s+(?:i|we)\b|"
          r"\bcan\s+(?:my|our)\s+\w+\b|\bwhat'?s\s+the\s+best"
          r"\s+way\b|\bbest\s+way\s+to\b|\btips?\s+(?:for|on)\b|\bshould\s+(?:i|we)\b|\bcan\s+(?:i|we)\b|"
          r"\bteach\s+me\b|\bshow\s+me\s+how\b|\bif\s+(?:they|he|she|hr|finance|payroll|the\s+\w+|"
          r"my\s+\w+)\s+(?:asks?|checks?|finds?\s+out|calls?)\b|\bhow\s+to\b|\bany\s+(?:way|trick|"
          r"workaround|hack|ideas|tips|suggestions|advice)\b|\bi'?ll\s+just\b|"
          r"\bi\s+will\s+just\b|" + FRAME + "|" + NOTICE + "|" + CLAUSE + "(?:" + REVISE + "|" + PRODUCE
          + r"|make|"
          r"create|write|generate|"
          r"tweak|adjust|amend|redo|rewrite|fill|type|prepare|put|sign|approve|act|pretend|imagine|role|"
          r"play|say|explain|read|check|stop|summari[sz]e|"
          r"draft|fake|forge|fabricate|falsify|backdate|doctor|photoshop|mock|whip|alter|change|edit|modify|"
          r"get|give|pull|find|look\s+up|tell|send|share|dig|list|help|compose|bypass|disable|turn|split|"
          r"hide|"
          r"word|phrase|break|spread|divide)\b|\blet'?s\b|\bwhat\s+"
          r"(?:should|do)\s+(?:i|we)\s+(?:say|write|put|tell))")
ABOUT = re.compile(
    r"\b(?:report(?:ing)?\s+(?:(?:a|an|the|my|this|it\s+to\s+the)\s+)?(?:colleague|co-?worker|someone|"
    r"somebody|"
    r"suspected|suspicious|possible|fraud|misconduct|concern|violation|wrongdoing|manager|boss|him|her|"
    r"them)|"
    r"whistle-?blow\w*|penalt\w*|consequences?|disciplin\w*\s+(?:for|if)|what\s+happens\s+(?:if|when)|"
    r"is\s+(?:it|that|this)\s+(?:illegal|allowed|ok(?:ay)?|fraud|legal|against)|am\s+i\s+allowed|"
    r"are\s+we\s+allowed|"
    r"(?:spot|detect|verify|check\s+(?:if|whether)(?!\s+(?:my|our|his|her|their|the|a|an)\s+(?:\w+\s+)?(?:"
    r"colleague|co-?worker|teammate|manager|boss|supervisor|employee|intern|friend|ex)\b|"
    r"\s+(?-i:[A-Z][a-z]+)\s+(?:earns?|makes?|gets?|is|was)\b)|recogni[sz]e|"
    r"prevent|avoid\s+(?:being\s+)?(?:scammed|"
    r"defrauded))\b|suspect\w*|accused|by\s+mistake|accidentally|(?:correct|fix)\s+(?:a|an|the|my)\s+"
    r"(?:mistake|error|typo)|mistake\s+on|wrong\s+(?:date|amount|name))", re.I)
"""Cues that a question is *about* misconduct (its penalty, how to report or prevent it, correcting an
honest mistake) rather than a request to commit it: they veto every rule except ``off_topic``."""

PERSON = (r"(?:colleague|co-?worker|teammate|team\s+mate|desk-?\s*mate|office-?\s*mate|buddy|"
           r"team\s+member|manager|boss|supervisor|employee|"
           r"everyone|everybody|new\s+hire|hire|joiner|new\s+joiner|people|team\s+lead|lead|"
           r"staff\s+member|direct\s+report|report|neighbou?r|ex|friend|intern|contractor|candidate|"
           r"applicant|person|someone|somebody|cfo|ceo|hr\s+person|recruiter|member|guy|girl|lady|woman|man|"
           r"gentleman|fellow|dude|bloke)")
OTHER = (rf"(?:\b(?:my|our|a|the|that|this|another|other|new)\s+(?:\w+\s+)?{PERSON}(?:'s|s')|"
          rf"\bsomeone\s+else'?s|\bsomebody\s+else'?s|\bother\s+people'?s|\bother\s+employees'?|"
          rf"\b(?:his|her|their)\b|\b(?:everyone|everybody)'?s\b|\b[a-z]+\s+(?:from|in|at)\s+"
          rf"(?:the\s+)?[a-z]+(?:\s+team)?'s\b|\b(?:of|for|about|on|against)\s+(?:(?:my|a|the|our|every|all)\s+"
          rf"(?:\w+\s+)?{PERSON}s?\b|(?:\w+\s+)?{PERSON}\b)|\b(?:my|our|the)\s+(?:\w+\s+)?{PERSON}s?\s+(?:has|had|have|got|is|are|"
          rf"was|were)\b)")
DATA = (r"(?:(?:home|personal|private|residential|postal|mailing)\s+address|address(?:es)?|"
         r"(?:personal|mobile|"
         r"cell|home|private|phone)\s+(?:phone\s+)?numbers?|phone\s+numbers?|mobile\s+numbers?|e-?mail\s+"
         r"address|(?:personal|private|home)\s+e-?mails?|salar(?:y|ies)|pay(?:\s+grade|\s+slip|\s+rate)?|"
         r"compensation|bonus(?:es)?|wages?|"
         r"(?:medical|health|sick(?:ness)?)\s+(?:records?|history|details|information|info|conditions?|"
         r"issues?|problems?|status|"
         r"leave|notes?)|diagnos[ie]s|(?:disciplinary|performance)\s+(?:records?|history|details|reviews?|"
         r"actions?|files?)|personnel\s+files?|hr\s+(?:files?|records?)|(?:social\s+security|ssn|passport|"
         r"aadhaar|pan|national\s+id)\s*(?:numbers?)?|bank\s+(?:account\s+)?details|date\s+of\s+birth|"
         r"birthdays?|background\s+check|criminal\s+record|whereabouts|location|(?:vacation|holiday|"
         r"travel)\s+plans|(?:going|travel\w*|heading)\s+on\s+(?:vacation|holiday|leave)|"
         r"(?:written\s+)?warnings|"
         r"(?:mobile|cell|phone|contact)\s+(?:no\b\.?|num\b|#)|complaints?(?=\s+(?:\w+\s+)?against)|"
         r"performance\s+(?:improvement\s+)?plans?|surger(?:y|ies)|operations?|treatments?|pregnan\w*)")
FETCH = (r"(?:what(?:'s|s|\s+is|\s+are)|what\s+did|need|want|where\s+(?:is|are)|get|pull|fetch|find|"
          r"look\s+up|"
          r"look\s+into|tell|"
          r"give|share|send|show|see|access|check|dig\s+up|"
          r"dig\s+out|find\s+out|grab|read|view|open|list|export|download|copy|forward|reveal|know|obtain)")

CONTROL = (r"(?:approvals?|sign-?offs?|pre-?approvals?|limits?|caps?|controls?|checks?|audits?|"
            r"auditors?|rules?|security|firewall|vpn|mfa|2fa|two[- ]factor|multi[- ]factor|monitoring|"
            r"tracking|logging|dlp|filters?|blocks?|restrictions?|review|policy|system|antivirus|"
            r"endpoint\s+protection|access\s+controls?|password\s+policy|expense\s+system)")
EVADE = (r"(?:bypass\w*|get\s+a?round|got\s+a?round|workaround\s+(?:for|to)|circumvent\w*|work\s+around|"
          r"get\s+past|sneak\s+(?:past|"
          r"around)|dodge|evade|override|disabl\w*|turn(?:ing)?\s+off|switch(?:ing)?\s+off|beat|game|hack|"
          r"trick|skip|avoid\s+(?:triggering|the\s+need\s+for))")

ALTER = (r"(?:alter\w*|chang\w*|edit\w*|modif\w*|amend\w*|adjust\w*|tweak\w*|rewrit\w*|swap\w*|replac\w*|"
         r"white\s*out|scratch\w*\s+out|bump\w*\s+up|inflat\w*|doctor\w*)")
"""Verbs of changing an existing document (narrower than :data:`EDIT`, which also makes new ones)."""
