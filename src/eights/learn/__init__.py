"""Learning: models trained on self-play (the ``[train]`` extra brings PyTorch)."""
