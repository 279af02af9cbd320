"""policybot core: config, store, retrieval, answering. No Slack or watchdog imports here."""
