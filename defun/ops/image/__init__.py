"""tf.image op tables: resizing (resize_weights.py builds TF's sampling weights, resize.py the ops
and their gradients), geometric transforms and crops (transforms.py), colour and dtype
conversions and adjustments (color.py), and the random and stateless random augmentations
(augment.py)."""
