"""tf.image.draw_bounding_boxes, extract_glimpse and (stateless_)sample_distorted_bounding_box.
Expected values recorded with TF 2.21 (the sampled boxes are TF's own Philox draws)."""
import numpy as np
import pytest

import defun as tf

IMAGE = tf.reshape(tf.range(2 * 5 * 6, dtype=tf.float32), [2, 5, 6, 1])
BOXES = tf.constant([[[0.1, 0.2, 0.7, 0.9], [-0.3, 0.5, 0.4, 1.5], [0.8, 0.8, 0.2, 0.9]],
                     [[0.5, -1.0, 2.0, 0.3], [0.0, 0.0, 0.0, 0.0], [1.2, 0, 1.5, 1]]])


def test_draw_bounding_boxes():
    colors = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    drawn = tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), np.array([[[0, 0, 1, 1]]]),
                                         colors)
    assert drawn.dtype == tf.float32
    assert drawn.numpy()[0, :, :, 0].tolist() == [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
    assert not drawn.numpy()[..., 1:].any()
    # default colours (grey images paint 1), boxes partly outside, inverted, outside, a point
    assert tf.image.draw_bounding_boxes(IMAGE, BOXES, None).numpy()[..., 0].tolist() == [
        [[0, 1, 1, 1, 1, 5], [6, 1, 1, 1, 1, 1], [12, 1, 1, 1, 1, 17], [18, 19, 20, 21, 22, 23],
         [24, 25, 26, 27, 28, 29]],
        [[1, 31, 32, 33, 34, 35], [36, 37, 38, 39, 40, 41], [1, 1, 44, 45, 46, 47],
         [48, 1, 50, 51, 52, 53], [1, 1, 1, 1, 1, 1]]]
    rgba = tf.image.draw_bounding_boxes(tf.zeros([1, 4, 4, 4]), BOXES[:1],
                                        [[0.2, 0.3, 0.4, 0.5, 0.6]])
    np.testing.assert_array_equal(rgba.numpy()[0, :, :, 2], np.float32(
        [[0.4, 0.4, 0.4, 0.4], [0.4, 0.4, 0.4, 0.4], [0.4, 0.4, 0.4, 0], [0, 0, 0, 0]]))


def test_draw_bounding_boxes_bad_input():
    box = [[[0, 0, 1, 1]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match='Channel depth should be'):
        tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 2]), box, [[1., 0., 0.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'equal or more channels than the '
                                                            r'image provided: \[1,2\]'):
        tf.image.draw_bounding_boxes(tf.zeros([1, 3, 3, 3]), box, [[1., 0.]])
    with pytest.raises(tf.errors.InvalidArgumentError, match='The batch sizes should be the same'):
        tf.image.draw_bounding_boxes(tf.zeros([2, 3, 3, 3]), box, [[1., 0., 0.]])


def test_extract_glimpse():
    x = [[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]]
    got = tf.image.extract_glimpse(x, size=(2, 2), offsets=[[1, 1]], centered=False,
                                   normalized=False)
    assert got.shape == (1, 2, 2, 1) and got.numpy()[0, :, :, 0].tolist() == [[4, 5], [7, 8]]
    x = np.arange(2 * 6 * 7 * 2, dtype=np.float32).reshape(2, 6, 7, 2)
    got = tf.image.extract_glimpse(x, size=(3, 2), offsets=[[1.7, 2.2], [0.3, -0.4]],
                                   centered=False, normalized=False)
    assert got.numpy()[..., 0].tolist() == [[[18, 20], [32, 34], [46, 48]],
                                            [[84, 86], [98, 100], [112, 114]]]
    got = tf.image.extract_glimpse(x, size=(3, 4), offsets=[[4, 5], [-1, -2]], centered=False,
                                   normalized=False, noise='zero')
    assert got.numpy()[..., 1].tolist() == [[[67, 69, 0, 0], [81, 83, 0, 0], [0, 0, 0, 0]],
                                            [[0, 0, 0, 0], [0, 0, 85, 87], [0, 0, 99, 101]]]
    # centered pixels: the inside part is the image, the rest uniform noise within its range
    got = tf.image.extract_glimpse(x, size=(3, 2), offsets=[[1.7, 2.2], [0.3, -0.4]],
                                   centered=True, normalized=False).numpy()[..., 0]
    assert got[0, :2].tolist() == [[66, 68], [80, 82]]
    assert got[1].tolist() == [[132, 134], [146, 148], [160, 162]]
    assert ((got[0, 2] >= 0) & (got[0, 2] <= 83)).all()


def test_extract_glimpse_bad_input():
    x = np.zeros([2, 6, 7, 2], np.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'first dimension should be batch'
                                                            r'\[1,2\]'):
        tf.image.extract_glimpse(x, (2, 2), [[1, 1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match='The noise could only be uniform'):
        tf.image.extract_glimpse(x, (2, 2), [[1, 1], [1, 1]], noise='x')


def test_stateless_sample_distorted_bounding_box_doc_example():
    image = np.array([[[1], [2], [3]], [[4], [5], [6]], [[7], [8], [9]]])
    bbox = tf.constant([0.0, 0.0, 1.0, 1.0], dtype=tf.float32, shape=[1, 1, 4])
    begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
        tf.shape(image), bounding_boxes=bbox, seed=(1, 2))
    assert begin.numpy().tolist() == [0, 0, 0] and size.numpy().tolist() == [2, 2, -1]
    np.testing.assert_array_equal(box.numpy(), np.float32([[[0, 0, 2 / 3, 2 / 3]]]))
    drawn = tf.image.draw_bounding_boxes(tf.expand_dims(tf.cast(image, tf.float32), 0), box,
                                         np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]))
    assert drawn.numpy().ravel().tolist() == [1, 1, 3, 1, 1, 6, 7, 8, 9]


SAMPLED = [  # seed, keyword arguments -> begin, size, box
    ((1, 2), {}, [3, 52, 0], [428, 389, -1],
     [0.0062500000931322575, 0.08124999701976776, 0.8979166746139526, 0.6890624761581421]),
    ((1, 2), dict(min_object_covered=0.5, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.9)),
     [107, 193, 0], [203, 359, -1],
     [0.22291666269302368, 0.30156248807907104, 0.6458333134651184, 0.862500011920929]),
    ((1, 2), dict(min_object_covered=0.0, area_range=(0.01, 0.3), max_attempts=5),
     [113, 423, 0], [163, 202, -1],
     [0.23541666567325592, 0.660937488079071, 0.574999988079071, 0.9765625]),
    ((3, 4), {}, [60, 96, 0], [378, 337, -1],
     [0.125, 0.15000000596046448, 0.9125000238418579, 0.676562488079071]),
    ((5, 6), dict(min_object_covered=0.5, aspect_ratio_range=(0.5, 2.0), area_range=(0.1, 0.9)),
     [145, 0, 0], [194, 288, -1],
     [0.3020833432674408, 0.0, 0.706250011920929, 0.44999998807907104]),
    ((123, -9), dict(min_object_covered=0.0, area_range=(0.01, 0.3), max_attempts=5),
     [28, 225, 0], [129, 159, -1],
     [0.05833333358168602, 0.3515625, 0.3270833194255829, 0.6000000238418579]),
]


@pytest.mark.parametrize('seed, kwargs, begin, size, box', SAMPLED)
def test_stateless_sample_distorted_bounding_box_matches_tf(seed, kwargs, begin, size, box):
    b, s, d = tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([480, 640, 3], tf.int64),
        tf.constant([[[0.1, 0.2, 0.6, 0.9], [0.3, 0.3, 0.4, 0.35]]]), seed=seed, **kwargs)
    assert b.dtype == tf.int64 and b.numpy().tolist() == begin and s.numpy().tolist() == size
    assert d.shape == (1, 1, 4) and d.numpy().ravel().tolist() == pytest.approx(box, abs=0)


def test_sample_distorted_bounding_box_seeded_streams():
    b, s, d = tf.image.stateless_sample_distorted_bounding_box(
        [17, 23, 1], tf.zeros([1, 0, 4]), seed=[4, 4], use_image_if_no_bounding_boxes=True)
    assert b.numpy().tolist() == [3, 2, 0] and s.numpy().tolist() == [12, 13, -1]
    tf.random.set_seed(1)
    sample = lambda: tf.image.sample_distorted_bounding_box(  # noqa: E731
        [100, 120, 3], [[[0.1, 0.1, 0.5, 0.5]]], seed=7)
    b, s, _ = sample()
    assert b.numpy().tolist() == [14, 30, 0] and s.numpy().tolist() == [57, 69, -1]
    b, s, _ = sample()   # the op's stream goes on, as TF's cached kernel's does
    assert b.numpy().tolist() == [6, 35, 0] and s.numpy().tolist() == [73, 78, -1]
    tf.random.set_seed(3)
    f = tf.function(lambda: tf.image.sample_distorted_bounding_box(
        [100, 120, 3], [[[0.1, 0.1, 0.5, 0.5]]], seed=7)[0])
    assert f().numpy().tolist() == [0, 2, 0] and f().numpy().tolist() == [15, 11, 0]


def test_sample_distorted_bounding_box_bad_input():
    sample = tf.image.stateless_sample_distorted_bounding_box
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'must be in \[0.0, 1.0\]: 2'):
        sample([5, 5, 1], [[[0, 0, 2, 1]]], seed=(1, 1))
    with pytest.raises(tf.errors.InvalidArgumentError, match='No bounding boxes provided'):
        sample([5, 5, 1], tf.zeros([1, 0, 4]), seed=(1, 1))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'less then or equal to 1.0: '
                                                            r'\[0.1, 2\]'):
        sample([5, 5, 1], [[[0, 0, 1, 1]]], seed=(1, 1), area_range=(0.1, 2))
