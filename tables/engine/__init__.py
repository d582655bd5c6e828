"""Rules engine: pure Python, no Django. Cards, provable deck, hand rankings, variants, decider."""
