"""Self-play learning of the ``learned`` bot (extra ``[train]``: PyTorch, CPU).

- :mod:`eights.fast.selfplay` (the kernel's side): many tables stepped in compiled
  code, any seat played from outside or by the kernel's greedy policy;
- :mod:`eights.learn.train`: the learners (Deep Monte-Carlo, policy gradient), the
  opponents' pool, checkpoints, the measurements against the expert.

``eights train`` is the command; the model it writes is played by
:class:`eights.bots.learned.LearnedBot` in NumPy, without PyTorch.
"""
