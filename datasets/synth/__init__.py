"""Synthetic, labelled photos of Rummikub tiles on tables and racks.

The generator renders tiles as 3-D boxes (ivory face with the number, bevel, thickness, shadow)
into table, rack and loose-tile scenes, photographs them with a random pinhole camera and spoils the
picture the way a phone does (light, glare, blur, noise, JPEG). Every image comes with YOLO labels and a
JSON sidecar (code, box, corners, meld/row, rotation, face-down, hidden fraction).
"""
