"""Learning: the ``learned`` bot and the belief model (extra ``[train]``: PyTorch, CPU).

- :mod:`eights.fast.selfplay` (the kernel's side): many tables stepped in compiled
  code, any seat played from outside or by the kernel's greedy policy;
- :mod:`eights.learn.train`: the learners (Deep Monte-Carlo, policy gradient), the
  opponents' pool, checkpoints, the measurements against the expert;
- :mod:`eights.learn.belief`: the belief model (where each unseen card lies), trained by
  supervised learning on self-play, run by :mod:`eights.bots.belief` in NumPy.

``eights train`` is the command; the model it writes is played by
:class:`eights.bots.learned.LearnedBot` in NumPy, without PyTorch.
"""
