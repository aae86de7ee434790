"""The image cases recorded from TensorFlow 2.21 into data/ops_ref.npz, by key: the same calls,
run on defun by test_image.py (x: a float32 batch [2, 4, 5, 3], u8: a uint8 image [4, 5, 3])."""


def cases(tf, x, u8):
    x3 = x[0]
    return {
        'flip_lr': lambda: tf.image.flip_left_right(x), 'flip_ud': lambda: tf.image.flip_up_down(x3),
        'rot90_1': lambda: tf.image.rot90(x3, 1), 'rot90_2': lambda: tf.image.rot90(x, 2), 'rot90_3': lambda: tf.image.rot90(x, 3),
        'transpose': lambda: tf.image.transpose(x), 'central': lambda: tf.image.central_crop(x, 0.5), 'central3': lambda: tf.image.central_crop(x3, 0.7),
        'crop_box': lambda: tf.image.crop_to_bounding_box(x, 1, 2, 2, 3), 'pad_box': lambda: tf.image.pad_to_bounding_box(x3, 1, 2, 6, 8),
        'crop_or_pad': lambda: tf.image.resize_with_crop_or_pad(x, 6, 3), 'crop_or_pad2': lambda: tf.image.resize_with_crop_or_pad(x3, 3, 7),
        'with_pad': lambda: tf.image.resize_with_pad(x, 8, 8), 'with_pad2': lambda: tf.image.resize_with_pad(x3, 3, 9, 'nearest'),
        'patches_same': lambda: tf.image.extract_patches(x, [1,2,2,1],[1,2,2,1],[1,1,1,1],'SAME'),
        'patches_valid': lambda: tf.image.extract_patches(x, [1,3,2,1],[1,1,2,1],[1,1,2,1],'VALID'),
        'cid_u8': lambda: tf.image.convert_image_dtype(x, tf.uint8), 'cid_f': lambda: tf.image.convert_image_dtype(u8, tf.float32),
        'cid_u16': lambda: tf.image.convert_image_dtype(u8, tf.uint16), 'cid_back': lambda: tf.image.convert_image_dtype(tf.image.convert_image_dtype(u8, tf.int32), tf.uint8),
        'cid_sat': lambda: tf.image.convert_image_dtype(x * 2 - 0.5, tf.uint8, saturate=True),
        'bright': lambda: tf.image.adjust_brightness(x, 0.3), 'bright_u8': lambda: tf.image.adjust_brightness(u8, 0.3),
        'contrast': lambda: tf.image.adjust_contrast(x, 1.7), 'contrast_u8': lambda: tf.image.adjust_contrast(u8, 0.4),
        'gamma': lambda: tf.image.adjust_gamma(x, 2.2, 0.9), 'gamma_u8': lambda: tf.image.adjust_gamma(u8, 0.5),
        'sat': lambda: tf.image.adjust_saturation(x, 1.8), 'sat_u8': lambda: tf.image.adjust_saturation(u8, 0.3),
        'hue': lambda: tf.image.adjust_hue(x, 0.37), 'hue_neg': lambda: tf.image.adjust_hue(x3, -0.8), 'hue_u8': lambda: tf.image.adjust_hue(u8, 0.1),
        'gray': lambda: tf.image.rgb_to_grayscale(x), 'gray_u8': lambda: tf.image.rgb_to_grayscale(u8),
        'gray2rgb': lambda: tf.image.grayscale_to_rgb(tf.image.rgb_to_grayscale(x)),
        'hsv': lambda: tf.image.rgb_to_hsv(x), 'hsv_back': lambda: tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(x) * [1, 0.5, 1]),
        'yiq': lambda: tf.image.rgb_to_yiq(x), 'yiq_back': lambda: tf.image.yiq_to_rgb(x), 'yuv': lambda: tf.image.rgb_to_yuv(x), 'yuv_back': lambda: tf.image.yuv_to_rgb(x),
        'std': lambda: tf.image.per_image_standardization(x), 'std_u8': lambda: tf.image.per_image_standardization(u8),
        'tv': lambda: tf.image.total_variation(x), 'tv3': lambda: tf.image.total_variation(x3),
        'grad_dy': lambda: tf.image.image_gradients(x)[0], 'grad_dx': lambda: tf.image.image_gradients(x)[1],
        'sflip_lr': lambda: tf.image.stateless_random_flip_left_right(x, [1, 2]), 'sflip_ud3': lambda: tf.image.stateless_random_flip_up_down(x3, [5, 9]),
        'sflip_lr3': lambda: tf.image.stateless_random_flip_left_right(x3, [3, 4]),
        'scrop': lambda: tf.image.stateless_random_crop(x, [2, 2, 3, 3], [1, 2]),
        'sbright': lambda: tf.image.stateless_random_brightness(x, 0.3, [1, 2]),
        'scontrast': lambda: tf.image.stateless_random_contrast(x, 0.2, 1.8, [4, 2]),
        'ssat': lambda: tf.image.stateless_random_saturation(x, 0.2, 1.8, [4, 2]),
        'shue': lambda: tf.image.stateless_random_hue(x, 0.3, [7, 2]),
    }
