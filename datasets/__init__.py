"""Dataset tooling: the synthetic photo generator (``datasets.synth``) and the real-photo splits."""
