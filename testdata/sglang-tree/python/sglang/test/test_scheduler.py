def test_retired_message_is_not_source():
    # Tests quote messages the product no longer prints.
    assert "Watchdog timeout (self.watchdog_timeout=" in "Watchdog timeout (self.watchdog_timeout=300)"
