"""The Streamlit app's pages (one module each) and what they share (``common``, ``photo``)."""
