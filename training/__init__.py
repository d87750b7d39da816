"""How the committed models are made: the plan, its named and timed steps, the model card, and
promoting a finished run into ``models/``.

The only package that imports both ``datasets`` and ``vision``. ``rummi train`` drives it.
"""
