"""Front ends: the Streamlit app (``app/main.py``) and the ``rummi`` command line (``app/cli.py``)."""
